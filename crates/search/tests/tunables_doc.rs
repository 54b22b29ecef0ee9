//! docs/search.md lists the tunables of `params.rs` in a table between
//! `<!-- tunables -->` and `<!-- /tunables -->`, and the fixed parameters in one
//! between `<!-- fixed -->` and `<!-- /fixed -->`; this test keeps them equal to
//! the declarations (`params::markdown_table`, `params::fixed_markdown_table`).
//! `UPDATE_DOCS=1 cargo test -p search --test tunables_doc` rewrites the blocks
//! from them.

use search::params::{fixed_markdown_table, markdown_table};

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/search.md");
const BEGIN: &str = "<!-- tunables -->\n";
const END: &str = "<!-- /tunables -->";
const FIXED_BEGIN: &str = "<!-- fixed -->\n";
const FIXED_END: &str = "<!-- /fixed -->";

/// The block between the markers `begin` and `end` of `text`, and where it lies.
fn block_between(text: &str, begin: &str, end: &str) -> Option<(usize, usize)> {
    let start = text.find(begin)? + begin.len();
    let end = start + text[start..].find(end)?;
    Some((start, end))
}

/// The tunables' block of `text`, and where it lies.
fn block(text: &str) -> Option<(usize, usize)> {
    block_between(text, BEGIN, END)
}

/// Whether `text`'s fixed-parameter table is the declarations' table.
fn check_fixed(text: &str) -> Result<(), String> {
    let (start, end) =
        block_between(text, FIXED_BEGIN, FIXED_END).ok_or("no <!-- fixed --> block")?;
    compare(&text[start..end], &fixed_markdown_table())
}

/// Whether `text`'s table is the declarations' table; `Err` says how not.
fn check(text: &str) -> Result<(), String> {
    let (start, end) = block(text).ok_or("no <!-- tunables --> block")?;
    compare(&text[start..end], &markdown_table())
}

/// Whether table `got` is `want`; `Err` says how not.
fn compare(got: &str, want: &str) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let first = got.lines().zip(want.lines()).find(|(g, w)| g != w);
    Err(match first {
        Some((g, w)) => {
            format!("the table differs from params.rs:\n  docs:      {g}\n  params.rs: {w}")
        }
        None => "the table's rows differ in number from params.rs".to_string(),
    })
}

#[test]
fn docs_table_matches_the_declarations() {
    let text = std::fs::read_to_string(DOC).expect("docs/search.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let (start, end) = block(&text).expect("a <!-- tunables --> block in docs/search.md");
        let updated = format!("{}{}{}", &text[..start], markdown_table(), &text[end..]);
        let (start, end) = block_between(&updated, FIXED_BEGIN, FIXED_END)
            .expect("a <!-- fixed --> block in docs/search.md");
        let updated = format!("{}{}{}", &updated[..start], fixed_markdown_table(), &updated[end..]);
        std::fs::write(DOC, updated).expect("write docs/search.md");
        return;
    }
    if let Err(e) = check(&text).and_then(|()| check_fixed(&text)) {
        panic!(
            "docs/search.md: {e}\n(UPDATE_DOCS=1 cargo test -p search --test tunables_doc rewrites it)"
        );
    }
}

/// The check catches a table that drifted: one default changed, one row gone.
#[test]
fn a_drifted_table_is_caught() {
    let table = markdown_table();
    let good = format!("x\n{BEGIN}{table}{END}\n");
    assert_eq!(check(&good), Ok(()));
    let default = search::params::defaults::rfp_margin;
    let row = format!("| `rfp_margin` | {default} |");
    let changed = good.replacen(&row, &format!("| `rfp_margin` | {} |", default + 1), 1);
    assert_ne!(changed, good);
    assert!(check(&changed).unwrap_err().contains("rfp_margin"));
    let last = table.lines().last().expect("rows");
    let shorter = good.replacen(&format!("{last}\n"), "", 1);
    assert!(check(&shorter).is_err());
}

//! The README's table of UCI options against the engine: every option the
//! `uci` reply declares has a row with its type, default and range, and every
//! row is an option the engine declares.

mod common;

use common::{Engine, SLOW};

/// One option: name, type, default (`—` for none), range (`—` for none).
#[derive(Debug, PartialEq, Eq)]
struct Row {
    name: String,
    kind: String,
    default: String,
    range: String,
}

/// The cells of the first Markdown table after the line `heading`, header and
/// separator left out.
fn table_after(text: &str, heading: &str) -> Vec<Vec<String>> {
    let rest = text
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README.md has no line '{heading}'"))
        .1;
    let rows: Vec<Vec<String>> = rest
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim().trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect();
    assert!(rows.len() > 2, "README.md: no table after '{heading}'");
    rows[2..].to_vec()
}

/// `` `x` `` -> `x`.
fn unquote(cell: &str) -> &str {
    cell.strip_prefix('`').and_then(|c| c.strip_suffix('`')).unwrap_or(cell)
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// The README's options table, as the engine would declare it: a spin's
/// `1–machine memory` is the engine's memory maximum.
fn readme_options(text: &str) -> Vec<Row> {
    let memory = tessera::uci::options::machine_memory_mb().to_string();
    table_after(text, "## UCI options")
        .into_iter()
        .map(|cells| {
            assert_eq!(cells.len(), 5, "README.md options row {cells:?}");
            assert!(cells[4].len() > 10, "README.md: option {} says nothing", cells[0]);
            Row {
                name: unquote(&cells[0]).to_string(),
                kind: cells[1].clone(),
                default: unquote(&cells[2]).to_string(),
                range: cells[3].replace("machine memory", &memory),
            }
        })
        .collect()
}

/// An `option name N type T [default D] [min A max B] [var V]...` line of the
/// `uci` reply, in the README's terms.
fn declared(line: &str) -> Row {
    let rest = line.strip_prefix("option name ").expect(line);
    let (name, rest) = rest.split_once(" type ").expect(line);
    let words: Vec<&str> = rest.split(' ').collect();
    let after = |key: &str| words.iter().position(|w| *w == key).map(|i| words[i + 1]);
    let vars: Vec<String> =
        words.windows(2).filter(|w| w[0] == "var").map(|w| format!("`{}`", w[1])).collect();
    let range = match (words[0], after("min"), after("max")) {
        ("spin", Some(min), Some(max)) => format!("{min}–{max}"),
        ("combo", ..) => vars.join(", "),
        _ => "—".to_string(),
    };
    Row {
        name: name.to_string(),
        kind: words[0].to_string(),
        default: after("default").unwrap_or("—").to_string(),
        range,
    }
}

fn engine_options() -> Vec<Row> {
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.wait_for(SLOW, |l| l == "uciok");
    assert!(e.quit(SLOW));
    lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .map(|l| declared(l))
        // The `tune` build's search tunables are listed in docs/search.md, not the README.
        .filter(|row| search::params::find(&row.name).is_none())
        .collect()
}

/// Fails on an option declared but not in the README, one in the README but
/// not declared, or a row whose type, default or range is not the declared one.
#[test]
fn the_readme_lists_every_uci_option_as_declared() {
    let text = readme();
    let readme = readme_options(&text);
    let engine = engine_options();
    let names = |rows: &[Row]| rows.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
    let missing: Vec<String> =
        names(&engine).into_iter().filter(|n| !names(&readme).contains(n)).collect();
    let extra: Vec<String> =
        names(&readme).into_iter().filter(|n| !names(&engine).contains(n)).collect();
    assert!(missing.is_empty(), "declared but not in README.md's options table: {missing:?}");
    assert!(extra.is_empty(), "in README.md's options table but not declared: {extra:?}");
    assert_eq!(readme, engine, "README.md's options table (left) against the uci reply (right)");
}

//! Truncated, corrupted and foreign table files are reported and skipped, never
//! handed to the prober; without tables nothing is loaded and probes return None.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use syzygy::{LoadError, RankedBy, RootOptions, TableProblem, Tablebases, Verify, Wdl};

/// A fresh folder under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tessera-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_tables(to: &Path) {
    for entry in std::fs::read_dir(tables()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
            let dest = to.join(path.file_name().unwrap());
            std::fs::write(&dest, std::fs::read(&path).unwrap()).unwrap();
        }
    }
}

fn edit(dir: &Path, file: &str, f: impl FnOnce(&mut Vec<u8>)) {
    let path = dir.join(file);
    let mut bytes = std::fs::read(&path).unwrap();
    f(&mut bytes);
    std::fs::write(&path, bytes).unwrap();
}

fn problem_of(report: &syzygy::LoadReport, file: &str) -> Option<TableProblem> {
    report.rejected.iter().find(|r| r.path.ends_with(file)).map(|r| r.problem.clone())
}

/// A broken set: each file damaged in one way.
fn damaged_set(dir: &Path) {
    copy_tables(dir);
    // Cut to half, keeping the size the generator writes (only the checksum can tell).
    edit(dir, "KQvKR.rtbw", |b| b.truncate(b.len() / 2 / 64 * 64 + 16));
    // A 3-piece table that 4-piece probes reach through captures, cut the same way.
    edit(dir, "KPvK.rtbw", |b| b.truncate(b.len() / 2 / 64 * 64 + 16));
    // Cut at an odd size.
    edit(dir, "KPvKP.rtbw", |b| b.truncate(b.len() / 2 + 3));
    // Same size, a stretch of bytes changed inside.
    edit(dir, "KBvKP.rtbz", |b| {
        let mid = b.len() / 2;
        for x in &mut b[mid..mid + 64] {
            *x ^= 0x5a;
        }
    });
    // Not a table at all.
    edit(dir, "KNvK.rtbw", |b| {
        *b = b"this is not a tablebase file, just text....\n".repeat(2)[..80].to_vec()
    });
    // Empty.
    edit(dir, "KRvK.rtbz", |b| b.clear());
}

#[test]
fn damaged_files_are_reported_and_skipped() {
    let _guard = one_prober_at_a_time();
    let dir = TempDir::new("damaged");
    damaged_set(&dir.0);
    let (tb, report) = Tablebases::load(dir.0.to_str().unwrap(), Verify::Checksum).unwrap();
    assert_eq!(problem_of(&report, "KQvKR.rtbw"), Some(TableProblem::ChecksumMismatch));
    assert!(matches!(problem_of(&report, "KPvKP.rtbw"), Some(TableProblem::BadSize { .. })));
    assert_eq!(problem_of(&report, "KBvKP.rtbz"), Some(TableProblem::ChecksumMismatch));
    assert_eq!(problem_of(&report, "KNvK.rtbw"), Some(TableProblem::BadMagic));
    assert_eq!(problem_of(&report, "KRvK.rtbz"), Some(TableProblem::BadSize { size: 0 }));
    assert_eq!(problem_of(&report, "KPvK.rtbw"), Some(TableProblem::ChecksumMismatch));
    assert_eq!(report.rejected.len(), 6, "{report}");
    assert_eq!((report.wdl_tables, report.dtz_tables), (31, 33), "{report}");
    let line = report.to_string();
    assert!(line.contains("KQvKR.rtbw: corrupted (checksum mismatch)"), "{line}");

    // Every labelled position either probes to its label or, where its table
    // was skipped, probes to nothing: never a wrong answer, never a crash.
    let (mut right, mut skipped) = (0, 0);
    for p in endgame_positions() {
        let wdl = tb.probe_wdl(&p.board);
        match wdl {
            Some(w) => {
                assert_eq!(w.signed(), p.wdl, "{}", p.fen);
                right += 1;
            }
            None => skipped += 1,
        }
        if let Some(dtz) = tb.probe_dtz(&p.board) {
            assert_eq!(dtz, p.dtz, "{}", p.fen);
        }
        if let Some(root) = tb.probe_root(&p.board, RootOptions::default()) {
            assert_eq!(root.wdl().signed(), p.wdl, "{}", p.fen);
        }
    }
    assert!(skipped > 0 && right > 150, "{right} right, {skipped} skipped");

    // KBvKP lost its DTZ table: its WDL still works and the root is ranked by WDL.
    let kbvkp = board::Board::from_fen("8/8/8/8/8/2k5/6p1/KB6 w - - 0 1").unwrap();
    assert!(tb.probe_wdl(&kbvkp).is_some());
    assert_eq!(tb.probe_dtz(&kbvkp), None);
    let by_wdl = endgame_positions()
        .iter()
        .filter_map(|p| tb.probe_root(&p.board, RootOptions::default()))
        .filter(|root| root.ranked_by == RankedBy::Wdl)
        .count();
    assert!(by_wdl > 0, "some roots are ranked by WDL where the DTZ table was skipped");
    // KQvKR lost its WDL table: not probed at all.
    let kqvkr = board::Board::from_fen("8/8/8/8/8/2k5/8/KQ2r3 w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&kqvkr), None);
    assert_eq!(tb.probe_root(&kqvkr, RootOptions::default()), None);
}

#[test]
fn a_later_folder_supplies_a_good_copy_of_a_bad_file() {
    let _guard = one_prober_at_a_time();
    let bad = TempDir::new("bad-first");
    damaged_set(&bad.0);
    let list = format!("{};{}", bad.0.display(), tables().display());
    let (tb, report) = Tablebases::load(&list, Verify::Checksum).unwrap();
    assert_eq!((report.wdl_tables, report.dtz_tables), (35, 35), "{report}");
    assert_eq!(report.rejected.len(), 6);
    let kqvkr = board::Board::from_fen("8/8/8/8/8/2k5/8/KQ2r3 w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&kqvkr), Some(Wdl::Win));
    // The prober sees only the good copies: every label is met.
    for p in endgame_positions() {
        assert_eq!(tb.probe_wdl(&p.board).map(Wdl::signed), Some(p.wdl), "{}", p.fen);
        assert_eq!(tb.probe_dtz(&p.board), Some(p.dtz), "{}", p.fen);
    }
}

#[test]
fn header_checks_alone_miss_a_corrupted_inside() {
    let _guard = one_prober_at_a_time();
    let dir = TempDir::new("header-only");
    damaged_set(&dir.0);
    // Only load-time checks here: the damaged tables are never probed.
    let (_tb, report) = Tablebases::load(dir.0.to_str().unwrap(), Verify::Header).unwrap();
    assert_eq!(problem_of(&report, "KQvKR.rtbw"), None, "same-size truncation passes");
    assert_eq!(problem_of(&report, "KBvKP.rtbz"), None, "changed bytes pass");
    assert_eq!(problem_of(&report, "KPvK.rtbw"), None);
    assert_eq!(report.rejected.len(), 3, "{report}");
}

#[test]
fn without_tables_nothing_is_loaded() {
    let _guard = one_prober_at_a_time();
    for list in ["", "<empty>", " ; : "] {
        let (tb, report) = Tablebases::load(list, Verify::Checksum).unwrap();
        assert!(!tb.is_loaded());
        assert_eq!((report.wdl_tables, report.max_pieces), (0, 0));
        let board = board::Board::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
        assert_eq!(tb.probe_wdl(&board), None);
        assert_eq!(tb.probe_root(&board, RootOptions::default()), None);
    }
    let missing = std::env::temp_dir().join("tessera-no-such-folder");
    match Tablebases::load(missing.to_str().unwrap(), Verify::Checksum) {
        Err(LoadError::NoTables(report)) => {
            assert_eq!(report.unreadable_folders.len(), 1);
            assert!(report.to_string().contains("cannot read folder"), "{report}");
        }
        other => panic!("expected NoTables, got {other:?}"),
    }
    let empty = TempDir::new("empty");
    assert!(matches!(
        Tablebases::load(empty.0.to_str().unwrap(), Verify::Checksum),
        Err(LoadError::NoTables(_))
    ));
}

#[test]
fn one_set_of_tables_per_process() {
    let _guard = one_prober_at_a_time();
    let list = tables();
    let (first, _) = Tablebases::load(list.to_str().unwrap(), Verify::Header).unwrap();
    assert!(matches!(
        Tablebases::load(list.to_str().unwrap(), Verify::Header),
        Err(LoadError::AlreadyLoaded)
    ));
    drop(first);
    let (again, _) = Tablebases::load(list.to_str().unwrap(), Verify::Header).unwrap();
    assert!(again.is_loaded());
}

/// A table name that is a FIFO (which a plain open would wait on for a writer
/// forever) or a directory is skipped as unreadable, at once.
#[test]
fn a_table_that_is_not_a_regular_file_is_skipped_at_once() {
    let _guard = one_prober_at_a_time();
    let dir = TempDir::new("not-regular");
    copy_tables(&dir.0);
    std::fs::remove_file(dir.0.join("KRvK.rtbw")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(dir.0.join("KRvK.rtbw")).status();
    assert!(made.unwrap().success(), "mkfifo");
    std::fs::remove_file(dir.0.join("KNvK.rtbw")).unwrap();
    std::fs::create_dir(dir.0.join("KNvK.rtbw")).unwrap();
    let start = std::time::Instant::now();
    let (_tb, report) = Tablebases::load(dir.0.to_str().unwrap(), Verify::Header).unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
    for (file, kind) in [("KRvK.rtbw", "a FIFO"), ("KNvK.rtbw", "a directory")] {
        assert_eq!(
            problem_of(&report, file),
            Some(TableProblem::Unreadable(format!("{kind}, not a regular file"))),
            "{file}"
        );
    }
    assert!(problem_of(&report, "KQvK.rtbw").is_none());
}

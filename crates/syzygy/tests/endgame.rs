//! Every labelled position of `data/syzygy/endgame.epd` probes to its labels,
//! WDL probes agree across threads, and root ranking keeps results.

mod common;

use board::Board;
use common::*;
use syzygy::{RankedBy, RootOptions, Tablebases, Verify, Wdl};

fn load() -> Tablebases {
    let (tb, report) =
        Tablebases::load(tables().to_str().unwrap(), Verify::Checksum).expect("tables load");
    assert_eq!((report.wdl_tables, report.dtz_tables, report.max_pieces), (35, 35, 4), "{report}");
    assert!(report.rejected.is_empty(), "{report}");
    tb
}

#[test]
fn every_labelled_position_probes_to_its_labels() {
    let _guard = one_prober_at_a_time();
    let tb = load();
    let positions = endgame_positions();
    assert_eq!(positions.len(), 200);
    let mut failures = Vec::new();
    let mut table_differs = 0;
    for p in &positions {
        let wdl = tb.probe_wdl(&p.board).map(Wdl::signed);
        let dtz = tb.probe_dtz(&p.board);
        if wdl != Some(p.wdl) || dtz != Some(p.dtz) {
            failures
                .push(format!("{}: wdl {wdl:?} want {}, dtz {dtz:?} want {}", p.fen, p.wdl, p.dtz));
        }
        // `wdl_table` is the raw table value; it differs from `wdl` only where
        // the result is reached by a capture, which the table leaves to the
        // prober. Then the best root move must be a capture.
        if p.wdl_table != p.wdl {
            table_differs += 1;
            let root = tb.probe_root(&p.board, RootOptions::default()).expect("a root probe");
            let best = root.moves[0].mv;
            let captured = p.board.piece_on(best.to()).is_some() || best.is_en_passant();
            if !captured || root.wdl().signed().signum() != p.wdl.signum() {
                failures.push(format!("{}: best root move {best:?} is no capture", p.fen));
            }
        }
    }
    assert!(failures.is_empty(), "{} of 200 wrong:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(table_differs, 13, "positions where the capture decides");
}

#[test]
fn root_probe_agrees_with_the_labels_and_keeps_the_result() {
    let _guard = one_prober_at_a_time();
    let tb = load();
    for p in endgame_positions() {
        let Some(root) = tb.probe_root(&p.board, RootOptions::default()) else {
            assert!(p.board.legal_moves().is_empty(), "{}", p.fen);
            continue;
        };
        assert_eq!(root.ranked_by, RankedBy::Dtz);
        assert_eq!(root.wdl().signed(), p.wdl, "{}", p.fen);
        // Every move keeping the result leads to a position that is lost for
        // the opponent exactly when the root is won.
        for mv in root.moves_keeping_result() {
            let mut child = p.board;
            child.play(mv);
            let child_root = tb.probe_root(&child, RootOptions::default());
            let child_wdl = child_root.map_or_else(
                || if child.in_check() { -2 } else { 0 }, // mated or stalemated
                |r| r.wdl().signed(),
            );
            assert_eq!(child_wdl.signum(), -p.wdl.signum(), "{} after {mv:?}", p.fen);
        }
    }
}

#[test]
fn the_fifty_move_rule_turns_a_slow_win_into_a_cursed_win() {
    let _guard = one_prober_at_a_time();
    let tb = load();
    // KBN v K: a long win (dtz well above 20).
    let fresh = Board::from_fen("8/8/8/8/8/8/8/KBN4k w - - 0 1").unwrap();
    let root = tb.probe_root(&fresh, RootOptions::default()).unwrap();
    assert_eq!(root.wdl(), Wdl::Win);
    // The fastest conversion (moves of equal rank keep generation order).
    let dtz = root.moves.iter().filter_map(|m| m.dtz).filter(|&d| d > 0).min().unwrap();
    assert!(dtz > 20, "dtz {dtz}");
    // The same position with the clock so high that no move converts in time.
    let late = Board::from_fen(&format!("8/8/8/8/8/8/8/KBN4k w - - {} 1", 100 - dtz + 2)).unwrap();
    let with_rule = tb.probe_root(&late, RootOptions { rule50: true, repeated: false }).unwrap();
    assert_eq!(with_rule.wdl(), Wdl::CursedWin);
    let without = tb.probe_root(&late, RootOptions { rule50: false, repeated: false }).unwrap();
    assert_eq!(without.wdl(), Wdl::Win);
    // Close to the limit, only the fastest conversions keep the win.
    let tight = Board::from_fen(&format!("8/8/8/8/8/8/8/KBN4k w - - {} 1", 100 - dtz)).unwrap();
    let tight = tb.probe_root(&tight, RootOptions::default()).unwrap();
    assert_eq!(tight.wdl(), Wdl::Win);
    assert!(tight.moves_keeping_result().count() < root.moves_keeping_result().count());
    // The WDL probe for the search assumes a fresh clock, so it refuses a late one.
    assert_eq!(tb.probe_wdl(&fresh), Some(Wdl::Win));
    assert_eq!(tb.probe_wdl(&late), None);
}

#[test]
fn wdl_probes_agree_across_threads() {
    let _guard = one_prober_at_a_time();
    let tb = load();
    let positions = endgame_positions();
    let expected: Vec<_> = positions.iter().map(|p| tb.probe_wdl(&p.board)).collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..50 {
                    for (p, want) in positions.iter().zip(&expected) {
                        assert_eq!(tb.probe_wdl(&p.board), *want);
                    }
                }
            });
        }
    });
}

#[test]
fn out_of_scope_positions_are_not_probed() {
    let _guard = one_prober_at_a_time();
    let tb = load();
    let too_many = Board::from_fen("8/8/8/8/8/2k5/2pp4/KQ6 w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&too_many), None);
    assert_eq!(tb.probe_root(&too_many, RootOptions::default()), None);
    let castling = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&castling), None);
    assert_eq!(tb.probe_dtz(&castling), None);
    let startpos = Board::startpos();
    assert_eq!(tb.probe_wdl(&startpos), None);
}

//! `Board::from_fen` on arbitrary bytes: never a panic, and every board it
//! accepts is consistent: its key is the recomputed one, its FEN reads back
//! to the same board, the bulk move count equals the list, each move's UCI
//! text (both notations) names that move and no other, and each child is
//! consistent too.
#![no_main]

use board::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(b) = Board::from_fen(text) else { return };
    assert!(b.incremental_state_is_consistent(), "{text:?}");
    assert_eq!(b.key(), b.compute_key(), "{text:?}");
    let fen = b.to_fen(true);
    let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{text:?} -> {fen:?}: {e}"));
    assert_eq!(again, b, "{text:?} -> {fen:?}");
    let moves = b.legal_moves();
    assert_eq!(b.count_legal_moves(), moves.len() as u64, "{fen}");
    for chess960 in [false, true] {
        let mut seen = std::collections::HashSet::new();
        for &mv in moves.iter() {
            let uci = b.move_to_uci(mv, chess960);
            assert_ne!(uci[0..2], uci[2..4], "{fen}: {mv:?} written {uci}");
            assert!(seen.insert(uci.clone()), "{fen}: {uci} twice");
            assert_eq!(b.parse_uci_move(&uci, chess960), Ok(mv), "{fen}: {uci}");
        }
    }
    for &mv in moves.iter() {
        let mut child = b;
        child.play(mv);
        assert!(child.incremental_state_is_consistent(), "{fen} {mv:?}");
        assert!(Board::from_fen(&child.to_fen(true)).is_ok(), "{fen} {mv:?}");
    }
});

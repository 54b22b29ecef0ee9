//! Malformed FENs: each must be rejected with the right [`FenError`] variant, never
//! a panic; and thousands of random mutations of valid FENs must each parse or be
//! rejected without panicking, every accepted board being internally consistent.

mod common;

use board::{Board, FenError, MAX_HALFMOVE_CLOCK, STARTPOS_FEN};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;

/// Parses `fen`, which must fail; returns the error (a panic inside `from_fen`
/// fails the test too).
fn error_of(fen: &str) -> FenError {
    match Board::from_fen(fen) {
        Ok(board) => panic!("{fen:?} was accepted as {}", board.to_fen(true)),
        Err(e) => {
            // Every error has a readable message.
            assert!(!e.to_string().is_empty());
            e
        }
    }
}

macro_rules! assert_fen_error {
    ($fen:expr, $pattern:pat) => {{
        let fen: &str = $fen;
        let e = error_of(fen);
        assert!(matches!(e, $pattern), "{fen:?}: got {e:?}, expected {}", stringify!($pattern));
    }};
}

#[test]
fn field_count() {
    assert_fen_error!("", FenError::FieldCount { found: 0 });
    assert_fen_error!("   ", FenError::FieldCount { found: 0 });
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        FenError::FieldCount { found: 1 }
    );
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        FenError::FieldCount { found: 3 }
    );
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        FenError::FieldCount { found: 7 }
    );
    // 4, 5 and 6 fields are all fine; missing clocks default to 0 1.
    let four = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(four.to_fen(false), STARTPOS_FEN);
    let five = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7").unwrap();
    assert_eq!((five.halfmove_clock(), five.fullmove_number()), (7, 1));
    // Runs of spaces and tabs separate fields like one space.
    let spaced =
        Board::from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq - 0 1 ").unwrap();
    assert_eq!(spaced.to_fen(false), STARTPOS_FEN);
}

#[test]
fn placement() {
    use FenError::Placement;
    // Bad piece letters.
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", Placement { .. });
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN? w KQkq - 0 1", Placement { .. });
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/4x3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Placement { .. }
    );
    // Nine files in a rank, by pieces, by digits and by a 9.
    assert_fen_error!(
        "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Placement { .. }
    );
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/44P/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Placement { .. }
    );
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement { .. });
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/P8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Placement { .. }
    );
    // A 0, and short ranks.
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/08/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Placement { .. }
    );
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement { .. });
    assert_fen_error!("rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement { .. });
    // Seven and nine ranks.
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement { .. });
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Placement { .. }
    );
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        Placement { .. }
    );
    // Garbage.
    assert_fen_error!("hello world foo bar", Placement { .. });
    assert_fen_error!("- - - -", Placement { .. });
    assert_fen_error!("/ / / /", Placement { .. });
}

#[test]
fn side_to_move() {
    use FenError::SideToMove;
    let e = error_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
    assert_eq!(e, SideToMove { field: "x".into() });
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
        SideToMove { .. }
    );
    assert_fen_error!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
        SideToMove { .. }
    );
}

#[test]
fn illegal_positions() {
    use FenError::IllegalPosition;
    // Two white kings; no black king; no kings at all; three kings each.
    assert_fen_error!("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", IllegalPosition { .. });
    assert_fen_error!("8/8/8/8/8/8/8/4K3 w - - 0 1", IllegalPosition { .. });
    assert_fen_error!("8/8/8/8/8/8/8/8 w - - 0 1", IllegalPosition { .. });
    assert_fen_error!("kkk5/8/8/8/8/8/8/KKK5 w - - 0 1", IllegalPosition { .. });
    // Pawns on the back ranks.
    assert_fen_error!("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", IllegalPosition { .. });
    assert_fen_error!("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", IllegalPosition { .. });
    // The side not to move is in check (White to move could take the king).
    assert_fen_error!("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", IllegalPosition { .. });
    assert_fen_error!("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", IllegalPosition { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/3qK3 b - - 0 1", IllegalPosition { .. });
    assert_fen_error!("8/8/8/8/8/8/3k4/4K3 w - - 0 1", IllegalPosition { .. }); // kings touch
    // Three checkers.
    assert_fen_error!("4k3/8/8/4r3/8/3n4/8/r3K3 w - - 0 1", IllegalPosition { .. });
    // Two checkers are accepted (a discovered double check).
    Board::from_fen("4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1").unwrap();
}

/// Material no game reaches (issue 12: this one has 263 legal moves, and the move
/// list silently stopped at 256).
#[test]
fn impossible_material() {
    use FenError::IllegalPosition;
    let cases = [
        "QQQQQQbk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1", // 27 queens
        "4k3/8/8/8/8/PPPPPPPP/P7/4K3 w - - 0 1",                  // 9 pawns
        "4k3/pppppppp/8/8/8/NNNNNNNN/1NNNNNNN/4K3 b - - 0 1",     // 16 men besides the king
        "4k3/8/8/8/8/8/PPPPPPPP/1NNN1K2 w - - 0 1",               // 3 knights and 8 pawns
        "4k3/8/8/8/8/8/PPPPPPPP/B1B1K3 w - - 0 1",                // 2 dark-square bishops, 8 pawns
        "qqqqkqqq/qq6/8/8/8/8/pppppp2/4K3 w - - 0 1",             // 9 queens and 6 pawns (black)
    ];
    for fen in cases {
        assert_fen_error!(fen, IllegalPosition { .. });
    }
    // The most mobile reachable position known: 218 moves, with 8 promoted queens.
    let b = Board::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    assert_eq!(b.legal_moves().len(), 218);
    assert_eq!(board::perft(&b, 1), 218);
    // Promotions matched by missing pawns are fine: 9 queens, or 3 rooks and 7 pawns.
    Board::from_fen("QQQ3rk/QQQ3rr/QQQ5/8/8/8/8/K7 w - - 0 1").unwrap();
    Board::from_fen("4k3/8/8/8/8/8/PPPPPPP1/RRR1K3 w - - 0 1").unwrap();
}

#[test]
fn castling() {
    use FenError::Castling;
    // A right without its rook (standard and X-FEN letters, and Shredder file letters).
    assert_fen_error!("4k3/8/8/8/8/8/8/4K3 w K - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w k - 0 1", Castling { .. });
    assert_fen_error!("r3k3/8/8/8/8/8/8/4K3 w K - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w G - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2N w H - 0 1", Castling { .. });
    // A black rook does not give White a right.
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2r w K - 0 1", Castling { .. });
    // The king off its back rank (the rook is there).
    assert_fen_error!("4k3/8/8/8/8/8/4K3/7R w K - 0 1", Castling { .. });
    assert_fen_error!("r7/4k3/8/8/8/8/8/4K3 w q - 0 1", Castling { .. });
    // A file letter naming the king's own file; bad letters; a right twice.
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w E - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w X - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w 1 - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w KH - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w K- - 0 1", Castling { .. });
    assert_fen_error!("4k3/8/8/8/8/8/8/4K2R w -- - 0 1", Castling { .. });

    // Not errors: a king off e with rooks beside it is a Chess960 setup, and the
    // rights then name those rooks.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1").unwrap();
    assert_eq!(b.to_fen(true), "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1");
    // Shredder-FEN for an inner rook reads back as its file letter in X-FEN.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/RR1K3R w B - 0 1").unwrap();
    assert_eq!(b.to_fen(true), "4k3/8/8/8/8/8/8/RR1K3R w B - 0 1");
    assert_eq!(
        b.castling_rook(board::Color::White, board::CastlingSide::Long),
        Some(board::Square::B1)
    );
    // ... and the outermost rook's file letter reads back as Q.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/1R1K3R w B - 0 1").unwrap();
    assert_eq!(b.to_fen(true), "4k3/8/8/8/8/8/8/1R1K3R w Q - 0 1");
}

#[test]
fn en_passant() {
    use FenError::EnPassant;
    // Not a square.
    assert_fen_error!("4k3/8/8/3pP3/8/8/8/4K3 w - d9 0 1", EnPassant { .. });
    assert_fen_error!("4k3/8/8/3pP3/8/8/8/4K3 w - z6 0 1", EnPassant { .. });
    assert_fen_error!("4k3/8/8/3pP3/8/8/8/4K3 w - d6d 0 1", EnPassant { .. });
    assert_fen_error!("4k3/8/8/3pP3/8/8/8/4K3 w - D 0 1", EnPassant { .. });
    // Wrong rank for the side to move.
    assert_fen_error!("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", EnPassant { .. });
    assert_fen_error!("4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 1", EnPassant { .. });
    assert_fen_error!("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", EnPassant { .. });
    // No pawn that could just have advanced two squares.
    assert_fen_error!("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", EnPassant { .. });
    assert_fen_error!("4k3/8/8/3PP3/8/8/8/4K3 w - d6 0 1", EnPassant { .. }); // own pawn
    // The squares it crossed are occupied.
    assert_fen_error!("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1", EnPassant { .. });
    assert_fen_error!("4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", EnPassant { .. });

    // Not errors: a possible but useless en-passant square is dropped (it is kept
    // only when a legal capture exists).
    let b = Board::from_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1").unwrap();
    assert_eq!(b.en_passant(), None);
    assert_eq!(b.to_fen(false), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
    let b = Board::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
    assert_eq!(b.en_passant(), Some(board::Square::D6));
}

#[test]
fn clocks() {
    use FenError::{FullmoveNumber, HalfmoveClock};
    let base = "4k3/8/8/8/8/8/8/4K3 w - -";
    for bad in ["-1", "x", "1.5", "1001", "65536", "99999999999999999999", "0x10", "½"] {
        if bad.is_ascii() {
            assert_fen_error!(&format!("{base} {bad} 1"), HalfmoveClock { .. });
        }
    }
    for bad in ["-1", "x", "65536", "4294967296", "99999999999999999999", "1e3"] {
        assert_fen_error!(&format!("{base} 0 {bad}"), FullmoveNumber { .. });
    }
    // Bounds that are accepted; a fullmove number of 0 (some GUIs) reads as 1.
    let max = MAX_HALFMOVE_CLOCK;
    assert_eq!(Board::from_fen(&format!("{base} {max} 1")).unwrap().halfmove_clock(), max);
    assert_eq!(Board::from_fen(&format!("{base} 0 65535")).unwrap().fullmove_number(), 65535);
    assert_eq!(Board::from_fen(&format!("{base} 0 0")).unwrap().fullmove_number(), 1);
    // Regression (found by `fuzz_mutations_large`): "00" used to give a board with
    // fullmove number 0, whose FEN then read back as 1.
    for zero in ["00", "000", "+0"] {
        let b = Board::from_fen(&format!("{base} 0 {zero}")).unwrap();
        assert_eq!(b.fullmove_number(), 1, "{zero:?}");
        assert_eq!(b.to_fen(false), format!("{base} 0 1"));
    }
}

#[test]
fn not_ascii() {
    use FenError::NotAscii;
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ♔BNR w KQkq - 0 1", NotAscii);
    assert_fen_error!("♔", NotAscii);
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq é3 0 1", NotAscii);
    assert_fen_error!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\0", NotAscii);
    assert_fen_error!("\0", NotAscii);
    assert_fen_error!("4k3/8/8/8/8/8/8/4K3 w - - ½ 1", NotAscii);
    // Control characters, including a trailing newline (callers trim lines).
    assert_fen_error!("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n", NotAscii);
    assert_fen_error!("4k3/8/8/8/8/8/8/4K3\rw - - 0 1", NotAscii);
    assert_fen_error!("4k3/8/8/8/8/8/8/4K3 w - - 0 1\u{7f}", NotAscii);
}

// ---- fuzzing -------------------------------------------------------------------------

/// Bytes a mutation inserts: FEN's own alphabet most of the time, anything else
/// (including multi-byte UTF-8 and control characters) sometimes.
fn random_char(rng: &mut Pcg64) -> String {
    const FEN_CHARS: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefghABCDEFGH0912";
    match rng.next_u32() % 10 {
        0 => char::from_u32(rng.next_u32() % 0x3000).unwrap_or('\u{fffd}').to_string(),
        1 => ((rng.next_u32() % 128) as u8 as char).to_string(),
        _ => (FEN_CHARS[rng.next_u32() as usize % FEN_CHARS.len()] as char).to_string(),
    }
}

/// A random edit of `fen`: a character replaced, inserted or deleted (1 to 3 times).
fn mutate(fen: &str, rng: &mut Pcg64) -> String {
    let mut chars: Vec<String> = fen.chars().map(String::from).collect();
    let edits = if rng.next_u32().is_multiple_of(2) { 1 } else { 2 + rng.next_u32() % 2 };
    for _ in 0..edits {
        let at = rng.next_u32() as usize % (chars.len() + 1);
        match rng.next_u32() % 3 {
            0 if at < chars.len() => chars[at] = random_char(rng),
            1 => chars.insert(at, random_char(rng)),
            _ if at < chars.len() => {
                chars.remove(at);
            }
            _ => chars.push(random_char(rng)),
        }
    }
    chars.concat()
}

/// Checks an accepted board: consistent state, and its FEN round-trips.
fn check_accepted(fen: &str, b: &Board) {
    assert!(b.incremental_state_is_consistent(), "{fen:?}");
    assert_eq!(b.key(), b.compute_key(), "{fen:?}");
    let out = b.to_fen(true);
    let again = Board::from_fen(&out).unwrap_or_else(|e| panic!("{fen:?} -> {out:?}: {e}"));
    assert_eq!(again.key(), b.key(), "{fen:?} -> {out:?}");
    assert_eq!(again, *b, "{fen:?} -> {out:?}");
    assert_eq!(again.to_fen(true), out);
    // The standard-notation FEN also parses (its castling letters may then name
    // other rooks in Chess960 setups, but the key only depends on which rights exist).
    let standard = b.to_fen(false);
    let s = Board::from_fen(&standard).unwrap_or_else(|e| panic!("{fen:?} -> {standard:?}: {e}"));
    assert_eq!(s.key(), b.key(), "{fen:?} -> {standard:?}");
    // Move generation works on it and every child is consistent.
    for &mv in b.legal_moves().iter() {
        let mut child = *b;
        child.play(mv);
        assert!(child.incremental_state_is_consistent(), "{fen:?} {mv:?}");
    }
}

fn fuzz(seeds: &[&str], rounds: usize, seed: u64) -> (usize, usize) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let (mut ok, mut err) = (0, 0);
    for i in 0..rounds {
        let base = seeds[i % seeds.len()];
        let fen = mutate(base, &mut rng);
        match std::panic::catch_unwind(|| Board::from_fen(&fen)) {
            Ok(Ok(b)) => {
                ok += 1;
                check_accepted(&fen, &b);
            }
            Ok(Err(e)) => {
                err += 1;
                assert!(!e.to_string().is_empty());
            }
            Err(_) => panic!("from_fen panicked on {fen:?}"),
        }
    }
    (ok, err)
}

fn seed_fens() -> Vec<String> {
    let mut fens: Vec<String> = common::perft_cases().into_iter().map(|c| c.fen).collect();
    fens.extend(
        [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBgc - 0 1",
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ]
        .map(String::from),
    );
    fens
}

#[test]
fn fuzz_mutations() {
    let fens = seed_fens();
    let seeds: Vec<&str> = fens.iter().map(String::as_str).collect();
    let (ok, err) = fuzz(&seeds, 300_000, 1);
    println!("fuzz: {ok} accepted, {err} rejected");
    // Both outcomes must be common, or the mutations are not probing anything.
    assert!(ok > 10_000 && err > 10_000, "{ok} accepted, {err} rejected");
}

#[test]
#[ignore = "five million mutations; run with --release -- --ignored"]
fn fuzz_mutations_large() {
    let fens = seed_fens();
    let seeds: Vec<&str> = fens.iter().map(String::as_str).collect();
    let (ok, err) = fuzz(&seeds, 5_000_000, 2);
    println!("fuzz: {ok} accepted, {err} rejected");
}

/// Random byte strings and random field soups: never a panic.
#[test]
fn fuzz_garbage() {
    let mut rng = Pcg64::seed_from_u64(3);
    const FIELDS: [&str; 12] =
        ["8", "4k3/8/8/8/8/8/8/4K3", "w", "b", "-", "KQkq", "e3", "0", "1", "HAha", "x", "//"];
    for _ in 0..20_000 {
        let len = rng.next_u32() as usize % 80;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = Board::from_fen(&text);
        let n = rng.next_u32() as usize % 8;
        let soup: Vec<&str> = (0..n).map(|_| FIELDS[rng.next_u32() as usize % 12]).collect();
        if let Ok(b) = Board::from_fen(&soup.join(" ")) {
            check_accepted(&soup.join(" "), &b);
        }
    }
}

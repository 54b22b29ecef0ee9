//! Rules that the differential test cannot see or sees too rarely: repetition
//! and the fifty-move rule through `Position`, insufficient material, the null
//! move, static exchange evaluation, Chess960 castling, check detection corner
//! cases, and proof that the incremental-key check can fail.

mod common;

use board::{Board, CastlingSide, Color, GameStatus, Move, Position, Square, zobrist};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal move `text` (UCI, standard or Chess960 notation) in `b`.
fn mv(b: &Board, text: &str, chess960: bool) -> Move {
    b.parse_uci_move(text, chess960).unwrap_or_else(|e| {
        panic!("{e} in {}: legal {:?}", b.to_fen(true), b.legal_moves().as_slice())
    })
}

fn push(pos: &mut Position, text: &str) {
    let m = mv(pos.board(), text, false);
    pos.push(m);
}

/// The board after playing `moves` (UCI text) from `fen`.
fn after(fen: &str, moves: &[&str], chess960: bool) -> Board {
    let mut b = board(fen);
    for text in moves {
        let m = mv(&b, text, chess960);
        b.play(m);
    }
    b
}

// ---- repetition and the fifty-move rule -------------------------------------------

#[test]
fn knight_shuffle_repeats_after_four_plies() {
    let mut pos = Position::new(Board::startpos());
    for (i, m) in ["g1f3", "g8f6", "f3g1"].iter().enumerate() {
        push(&mut pos, m);
        assert!(!pos.is_repetition(), "after ply {}", i + 1);
        assert_eq!(pos.repetitions(), 0);
    }
    push(&mut pos, "f6g8");
    assert_eq!(pos.board().key(), Board::startpos().key());
    assert!(pos.is_repetition());
    assert_eq!(pos.repetitions(), 1);
    assert!(!pos.is_draw_by_rule(), "twofold is not a draw by rule");
    assert!(pos.is_draw_in_search(), "but the search scores it a draw");

    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        push(&mut pos, m);
    }
    assert_eq!(pos.repetitions(), 2, "threefold");
    assert!(pos.is_draw_by_rule());

    // Taking a move back undoes it: the position before it occurred twice.
    pos.pop();
    assert!(pos.is_repetition());
    assert_eq!(pos.repetitions(), 1);
    assert!(!pos.is_draw_by_rule());
    push(&mut pos, "f6g8");
    assert!(pos.is_draw_by_rule());

    // A pawn move resets: nothing before it can repeat.
    push(&mut pos, "e2e4");
    assert!(!pos.is_repetition());
    for m in ["g8f6", "g1f3", "f6g8", "f3g1"] {
        push(&mut pos, m);
    }
    assert!(pos.is_repetition(), "the position after e4 came back");
    assert_eq!(pos.repetitions(), 1);
    assert_eq!(pos.board().halfmove_clock(), 4);
}

/// The search's draw test knows every rule the game's does: the fifty-move
/// rule (not when the side to move is mated) and insufficient material.
#[test]
fn the_search_scores_every_draw_by_rule_a_draw() {
    let fifty = Position::new(board("4k3/8/8/8/8/8/8/Q3K3 w - - 100 80"));
    assert!(fifty.is_draw_by_rule() && fifty.is_draw_in_search());
    let ninety_nine = Position::new(board("4k3/8/8/8/8/8/8/Q3K3 w - - 99 80"));
    assert!(!ninety_nine.is_draw_by_rule() && !ninety_nine.is_draw_in_search());
    // Mated on the hundredth ply: the mate stands.
    let mated = Position::new(board("k7/1Q6/1K6/8/8/8/8/8 b - - 100 80"));
    assert!(!mated.is_draw_by_rule() && !mated.is_draw_in_search());
    let bare = Position::new(board("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
    assert!(bare.is_draw_by_rule() && bare.is_draw_in_search());
}

#[test]
fn same_placement_other_side_to_move_is_not_a_repetition() {
    // Triangulation: the kings return but with the other side to move.
    let mut pos = Position::new(board("8/8/8/4k3/8/8/8/4K3 w - - 0 1"));
    for m in ["e1d1", "e5d5", "d1d2", "d5e5", "d2e1"] {
        push(&mut pos, m);
        assert!(!pos.is_repetition());
    }
    assert_eq!(pos.board().to_fen(false).split(' ').next(), Some("8/8/8/4k3/8/8/8/4K3"));
    assert_eq!(pos.board().side_to_move(), Color::Black);
}

#[test]
fn useless_en_passant_square_does_not_break_repetition() {
    // After 1. e4 no black pawn can take en passant: the square is not stored,
    // so the same position four plies later is a repetition.
    let mut pos = Position::new(Board::startpos());
    push(&mut pos, "e2e4");
    assert_eq!(pos.board().en_passant(), None);
    for m in ["g8f6", "g1f3", "f6g8", "f3g1"] {
        push(&mut pos, m);
    }
    assert!(pos.is_repetition());

    // With a black pawn on d4 the capture is legal: the first occurrence differs
    // (en passant was possible), the later ones do not.
    let mut pos = Position::new(board("4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1"));
    push(&mut pos, "e2e4");
    assert_eq!(pos.board().en_passant(), Some(Square::E3));
    let with_ep = pos.board().key();
    for m in ["e8d8", "g1f3", "d8e8", "f3g1"] {
        push(&mut pos, m);
    }
    assert_eq!(pos.board().en_passant(), None);
    assert_ne!(pos.board().key(), with_ep);
    assert!(!pos.is_repetition());
    for m in ["e8d8", "g1f3", "d8e8", "f3g1"] {
        push(&mut pos, m);
    }
    assert!(pos.is_repetition());
    assert_eq!(pos.repetitions(), 1);
}

#[test]
fn repetition_window_is_bounded_by_the_root_and_null_moves() {
    // A halfmove clock larger than the history must not reach past the root.
    let mut pos = Position::new(board("4k3/8/8/8/8/8/8/4K1N1 w - - 60 40"));
    push(&mut pos, "g1f3");
    assert!(!pos.is_repetition());
    // The root is never popped.
    pos.pop();
    pos.pop();
    assert_eq!(pos.ply_count(), 0);
    // A null move resets the clock, so no repetition is seen across it.
    for m in ["g1f3", "e8d8", "f3g1", "d8e8"] {
        push(&mut pos, m);
    }
    assert!(pos.is_repetition());
    pos.push_null();
    assert_eq!(pos.board().halfmove_clock(), 0);
    pos.push_null();
    assert_eq!(pos.board().key(), board("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").key());
    assert!(!pos.is_repetition());
    pos.pop();
    pos.pop();
    assert!(pos.is_repetition());
    // Forgetting the history forgets the repetition.
    pos.truncate_history();
    assert!(!pos.is_repetition());
}

#[test]
fn fifty_move_rule() {
    let b = board("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(b.status(), GameStatus::Ongoing);
    let quiet = after("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", &["a1a2"], false);
    assert_eq!(quiet.halfmove_clock(), 100);
    assert_eq!(quiet.status(), GameStatus::FiftyMoveRule);
    assert!(Position::new(quiet).is_draw_by_rule());
    assert_eq!(board("4k3/8/8/8/8/8/8/R3K3 b - - 100 80").status(), GameStatus::FiftyMoveRule);
    assert_eq!(board("4k3/8/8/8/8/8/8/R3K3 b - - 150 80").status(), GameStatus::FiftyMoveRule);

    // Checkmate on the hundredth ply wins: the position is mate, not a draw.
    let mate = after("k7/8/1K6/8/8/8/8/7R w - - 99 80", &["h1h8"], false);
    assert_eq!(mate.halfmove_clock(), 100);
    assert_eq!(mate.status(), GameStatus::Checkmate);
    assert!(!Position::new(mate).is_draw_by_rule());
    // Check that is not mate on the hundredth ply is a draw.
    let check = after("k7/8/8/8/8/8/8/K6R w - - 99 80", &["h1h8"], false);
    assert!(check.in_check());
    assert!(Position::new(check).is_draw_by_rule());

    // Captures and pawn moves reset the clock; other moves increment it.
    assert_eq!(after("4k3/8/8/8/8/8/4P3/R3K3 w - - 42 80", &["e2e3"], false).halfmove_clock(), 0);
    assert_eq!(after("4k3/r7/8/8/8/8/8/R3K3 w - - 42 80", &["a1a7"], false).halfmove_clock(), 0);
    assert_eq!(after("4k3/8/8/8/8/8/8/R3K3 w - - 42 80", &["e1f1"], false).halfmove_clock(), 43);
    // The fullmove number goes up after Black's move.
    let b = after("4k3/8/8/8/8/8/8/R3K3 w - - 0 80", &["e1f1", "e8f8"], false);
    assert_eq!(b.fullmove_number(), 81);
}

#[test]
fn insufficient_material() {
    let dead = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",      // K v K
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",     // KN v K
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",     // KB v K
        "4kb2/8/8/8/8/8/8/4K3 w - - 0 1",     // K v KB
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",   // KB v KB, same-colored bishops
        "4k3/8/8/8/8/8/1B6/B1B1K3 w - - 0 1", // any number of same-colored bishops
    ];
    for fen in dead {
        let b = board(fen);
        assert!(b.is_insufficient_material(), "{fen}");
        assert_eq!(b.status(), GameStatus::InsufficientMaterial, "{fen}");
        assert!(Position::new(b).is_draw_by_rule(), "{fen}");
    }
    let alive = [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  // a pawn
        "4k3/8/8/8/8/8/8/4KR2 w - - 0 1",   // a rook
        "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1",   // a queen
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",  // two knights (a helpmate exists)
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",  // KN v KN (helpmate)
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",  // opposite-colored bishops (helpmate)
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", // the bishop pair
        "4k3/8/8/8/8/8/8/3NKB2 w - - 0 1",  // bishop and knight
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",  // KB v KN (helpmate)
        "4k3/7p/8/8/8/8/8/4KB2 w - - 0 1",  // KB v KP
    ];
    for fen in alive {
        let b = board(fen);
        assert!(!b.is_insufficient_material(), "{fen}");
        assert_eq!(b.status(), GameStatus::Ongoing, "{fen}");
    }
    // One side short of mating material while the other is not.
    let b = board("4k3/8/8/8/8/8/8/3qK1N1 w - - 0 1");
    assert!(b.has_insufficient_material(Color::White));
    assert!(!b.has_insufficient_material(Color::Black));
    assert!(!b.is_insufficient_material());
    // A move into a dead position.
    let b = after("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", &["e1e2"], false);
    assert_eq!(b.status(), GameStatus::InsufficientMaterial);
    // Mate and stalemate take precedence.
    assert_eq!(board("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1").status(), GameStatus::Stalemate);
    assert_eq!(board("6Qk/5K2/8/8/8/8/8/8 b - - 0 1").status(), GameStatus::Checkmate);
}

// ---- the null move -------------------------------------------------------------------

#[test]
fn null_move() {
    let b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 7 9");
    let mut n = b;
    n.play_null();
    assert_eq!(n.key(), b.key() ^ zobrist::SIDE, "only the side key changes");
    assert_eq!(n.key(), n.compute_key());
    assert_eq!(n.pawn_key(), b.pawn_key());
    assert_eq!(n.side_to_move(), Color::Black);
    assert_eq!(n.castling_rights(), b.castling_rights());
    assert_eq!(n.halfmove_clock(), 0, "reset so repetition never looks across a null move");
    assert_eq!(n.fullmove_number(), b.fullmove_number());
    assert!(n.incremental_state_is_consistent());
    n.play_null();
    assert_eq!(n.key(), b.key());

    // With a legal en-passant capture, the null move clears it (and its key).
    let b = after("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", &["e2e4"], false);
    assert_eq!(b.en_passant(), Some(Square::E3));
    let mut n = b;
    n.play_null();
    assert_eq!(n.en_passant(), None);
    assert_eq!(n.key(), b.key() ^ zobrist::SIDE ^ zobrist::en_passant(board::File::E));
    assert_eq!(n.key(), n.compute_key());
    assert!(n.incremental_state_is_consistent());
    // Pins are recomputed for the new side to move.
    let b = board("4k3/4r3/8/8/8/8/4B3/4K3 b - - 0 1");
    let mut n = b;
    n.play_null();
    assert_eq!(n.pinned(), Square::E2.bitboard());
}

// ---- static exchange evaluation ---------------------------------------------------

/// Asserts that the exchange started by `text` is worth exactly `value`.
fn assert_see(fen: &str, text: &str, value: i32) {
    let b = board(fen);
    let m = mv(&b, text, false);
    assert!(b.see_ge(m, value), "{fen} {text}: see >= {value}");
    assert!(!b.see_ge(m, value + 1), "{fen} {text}: see < {}", value + 1);
}

#[test]
fn see_classic_positions() {
    // A rook takes an undefended pawn.
    assert_see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100);
    // The CPW example: the knight takes a pawn defended by a knight, bishop and
    // queen (x-ray) against a rook and queen (x-ray): the knight is lost for a pawn.
    assert_see("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 100 - 320);
    // A pawn takes a knight defended by a pawn: +320 - 100 >= 0.
    assert_see("4k3/8/3p4/4n3/5P2/8/8/4K3 w - - 0 1", "f4e5", 320 - 100);
    // A queen takes a pawn defended by a pawn: < 0.
    assert_see("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5", 100 - 950);
    let b = board("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1");
    assert!(!b.see_ge(mv(&b, "e1e5", false), 0));
    // A knight takes an undefended knight; a defended one is an even trade.
    assert_see("4k3/8/8/4n3/8/3N4/8/4K3 w - - 0 1", "d3e5", 320);
    assert_see("4k3/8/3p4/4n3/8/3N4/8/4K3 w - - 0 1", "d3e5", 0);
}

#[test]
fn see_x_rays() {
    // Doubled rooks: the rear rook backs up the front one.
    assert_see("4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", 100);
    assert_see("4k3/4r3/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", 100 - 500);
    // A bishop behind a pawn on the diagonal.
    assert_see("4k3/8/5b2/4p3/3P4/2B5/8/4K3 w - - 0 1", "d4e5", 100);
    assert_see("4k3/8/5b2/4p3/3P4/8/8/4K3 w - - 0 1", "d4e5", 0);
    // A queen behind a bishop on the defending side (and one behind the rook).
    assert_see("q3k3/1b6/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", 100 - 500);
    assert_see("4k3/1b6/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", 100 - 500 + 330);
    // The king may recapture only when nothing else defends.
    assert_see("8/8/3k4/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", 100);
    assert_see("8/8/3k4/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100 - 500);
}

#[test]
fn see_special_moves() {
    // En passant captures a pawn.
    let b = after("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", &["e2e4"], false);
    let ep = mv(&b, "d4e3", false);
    assert!(ep.is_en_passant());
    assert!(b.see_ge(ep, 100) && !b.see_ge(ep, 101));
    // Promotion adds the promotion gain; a defended promotion square loses the queen.
    assert_see("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 950 - 100);
    assert_see("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", 320 - 100);
    assert_see("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 850 - 950);
    // Castling is neutral.
    assert_see("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0);
    // A quiet move to an attacked square loses the piece.
    assert_see("4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "c1e3", 0);
    assert_see("4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "c1f4", 0);
    assert_see("4k3/8/8/3p4/8/8/8/4KN2 w - - 0 1", "f1e3", 0);
    assert_see("4k3/8/8/8/3p4/8/8/4KN2 w - - 0 1", "f1e3", -320);
}

// ---- check detection corner cases ------------------------------------------------------

#[test]
fn gives_check_special_moves() {
    let cases: [(&str, &str, bool, bool); 9] = [
        // En passant uncovering a rook along the rank.
        ("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e5d6", false, true),
        // Castling: the rook checks from f1 / d1.
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false, true),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", false, true),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false, false),
        // Promotions: queen and rook check along the rank, knight and bishop do not.
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", false, true),
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", false, true),
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", false, false),
        // Discovered check by a king move.
        ("4k3/8/8/8/4K3/8/8/4R3 w - - 0 1", "e4d4", false, true),
        // Chess960 castling with the king staying on g1 and the rook checking on f8.
        ("5k2/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", true, true),
    ];
    for (fen, text, chess960, expected) in cases {
        let b = board(fen);
        let m = mv(&b, text, chess960);
        assert_eq!(b.gives_check(m), expected, "{fen} {text}");
        let mut child = b;
        child.play(m);
        assert_eq!(child.in_check(), expected, "{fen} {text}");
    }
}

// ---- Chess960 castling -------------------------------------------------------------------

#[test]
fn chess960_castling_moves() {
    // (FEN, move in Chess960 UCI, FEN after)
    let cases = [
        // King and rook swap squares.
        ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        // The king does not move, only the rook.
        ("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        // The rook does not move, only the king.
        ("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        // Long castling with the king moving right: b1 -> c1, a1 -> d1.
        ("4k3/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"),
        // Black, long, king on g8 and rook on b8: castling clears both rights.
        ("1r4kr/8/8/8/8/8/8/4K3 b hb - 3 7", "g8b8", "2kr3r/8/8/8/8/8/8/4K3 w - - 4 8"),
    ];
    for (fen, text, expected) in cases {
        let b = board(fen);
        let m = mv(&b, text, true);
        assert!(m.is_castling(), "{fen} {text}");
        // King-takes-rook encoding, and the same text back.
        assert_eq!(b.colored_piece_on(m.to()).map(|p| p.piece), Some(board::Piece::Rook));
        assert_eq!(b.move_to_uci(m, true), text);
        let mut next = b;
        next.play(m);
        assert_eq!(next.to_fen(true), expected, "{fen} {text}");
        assert!(next.incremental_state_is_consistent());
        assert_eq!(next.key(), board(expected).key());
    }
}

#[test]
fn chess960_castling_legality() {
    let castles = |fen: &str| -> Vec<String> {
        let b = board(fen);
        b.legal_moves()
            .iter()
            .filter(|m| m.is_castling())
            .map(|&m| b.move_to_uci(m, true))
            .collect()
    };
    // A piece on the rook's destination blocks castling (d1 for long castling).
    assert!(castles("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1").is_empty());
    assert_eq!(castles("4k3/8/8/8/8/8/8/RKN5 w A - 0 1"), Vec::<String>::new());
    assert_eq!(castles("4k3/8/8/8/8/8/8/RK6 w A - 0 1"), ["b1a1"]);
    // The castling rook hides an attacker from the king's destination: with both
    // pieces lifted, c1 is attacked by the rook on a1, so castling is illegal.
    assert!(castles("4k3/8/8/8/8/8/8/rRK5 w B - 0 1").is_empty());
    // The same with the king's path instead: king on f1, rook on g1, black rook h1.
    assert!(castles("4k3/8/8/8/8/8/8/5KRr w G - 0 1").is_empty());
    // Squares the king crosses must not be attacked; squares only the rook crosses may be.
    assert!(castles("4k3/8/8/8/8/8/8/RK1n4 w A - 0 1").is_empty(), "d1 holds an enemy piece");
    assert!(castles("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1").len() == 1, "b1 attacked is fine");
    assert!(castles("2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1").is_empty(), "c1 attacked");
    assert!(castles("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1").is_empty(), "d1 attacked");
    // In check: no castling.
    assert!(castles("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1").is_empty());
}

#[test]
fn castling_rights_are_lost() {
    let fen = "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1";
    // The h1 rook is captured: White loses the short right only.
    let b = after(fen, &["g2h1"], false);
    assert_eq!(b.to_fen(false), "r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2");
    assert_eq!(b.castling_rook(Color::White, CastlingSide::Short), None);
    assert_eq!(b.key(), b.compute_key());
    // A rook moves: that side's right goes; the king moves: both go.
    let b = after(fen, &["a8b8"], false);
    assert_eq!(b.to_fen(false).split(' ').nth(2), Some("KQk"));
    let b = after(fen, &["e8d8"], false);
    assert_eq!(b.to_fen(false).split(' ').nth(2), Some("KQ"));
    // Castling removes both rights of the side that castles.
    let b = after(fen, &["e8g8"], false);
    assert_eq!(b.to_fen(false), "r4rk1/8/8/8/8/8/6b1/R3K2R w KQ - 1 2");
    // A rook capturing a rook removes both sides' rights on those squares.
    let b = after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["a1a8"], false);
    assert_eq!(b.to_fen(false).split(' ').nth(2), Some("Kk"));

    // Chess960: the right follows the rook's file, not the corner.
    let fen960 = "1r2k1r1/8/8/8/8/8/5n2/1R2K1R1 b GBgb - 0 1";
    let b = after(fen960, &["f2g4"], true);
    assert_eq!(b.to_fen(true).split(' ').nth(2), Some("KQkq"));
    let b = board("1r2k1r1/8/8/8/8/8/8/1R2K1Rn b GBgb - 0 1");
    let b = after(&b.to_fen(true), &["h1g3"], true);
    assert_eq!(b.to_fen(true).split(' ').nth(2), Some("KQkq"), "a knight hop changes nothing");
    let b = after("1r2k1r1/8/8/8/8/8/8/1R2K1Rb b GBgb - 0 1", &["b8b1"], true);
    assert_eq!(b.to_fen(true).split(' ').nth(2), Some("Kk"), "b1 rook captured, b8 rook moved");
    // A second rook beyond the castling rook: X-FEN names the castling rook's file.
    let b = after("4k3/8/8/8/8/8/8/1R1K1R1R w F - 0 1", &[], true);
    assert_eq!(b.to_fen(true).split(' ').nth(2), Some("F"));
    assert_eq!(b.to_fen(false).split(' ').nth(2), Some("K"));
}

#[test]
fn castling_notation() {
    let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = mv(&b, "e1g1", false);
    assert!(short.is_castling());
    assert_eq!(short.to(), Square::H1, "encoded as king takes rook");
    assert_eq!(b.move_to_uci(short, false), "e1g1");
    assert_eq!(b.move_to_uci(short, true), "e1h1");
    // Standard chess reads both forms; Chess960 only king-takes-rook.
    assert_eq!(b.parse_uci_move("e1h1", false), Ok(short));
    assert_eq!(b.parse_uci_move("e1h1", true), Ok(short));
    assert!(matches!(b.parse_uci_move("e1g1", true), Err(board::MoveError::Illegal { .. })));
    let long = mv(&b, "e1c1", false);
    assert_eq!(long.to(), Square::A1);
    assert_eq!(b.move_to_uci(long, true), "e1a1");
    // Chess960 with the king next to its destination: f1g1 is a plain king move,
    // f1h1 is castling.
    let b = board("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    let step = mv(&b, "f1g1", true);
    assert!(!step.is_castling());
    let castle = mv(&b, "f1h1", true);
    assert!(castle.is_castling());
    let mut after_castle = b;
    after_castle.play(castle);
    assert_eq!(after_castle.to_fen(true), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Syntax errors are distinct from illegal moves.
    for bad in ["", "e2", "e2e4qq", "e2e9", "i2e4", "e7e8k", "e7e8p", "é2e4"] {
        assert!(
            matches!(
                Board::startpos().parse_uci_move(bad, false),
                Err(board::MoveError::Syntax { .. })
            ),
            "{bad:?}"
        );
    }
    assert!(matches!(
        Board::startpos().parse_uci_move("e2e5", false),
        Err(board::MoveError::Illegal { .. })
    ));
}

/// Castling rights a standard-chess FEN can give that standard notation cannot
/// write (issue 12): the king's destination is its own square (`g1g1`) or a plain
/// king move's (`b1c1`). Such castling is written king-takes-rook in both modes.
#[test]
fn castling_that_standard_notation_cannot_write() {
    let b = board("k4r2/8/8/8/4b2p/7P/7P/6KR w K - 0 1");
    let castle = b.legal_moves().iter().copied().find(|m| m.is_castling()).expect("O-O is legal");
    assert_eq!(b.move_to_uci(castle, false), "g1h1");
    assert_eq!(b.move_to_uci(castle, true), "g1h1");
    assert_eq!(mv(&b, "g1h1", false), castle);
    assert!(b.parse_uci_move("g1g1", false).is_err());

    let b = board("4k3/8/8/8/8/8/8/RK6 w Q - 0 1");
    let step = mv(&b, "b1c1", false);
    assert!(!step.is_castling(), "b1c1 is the plain king move");
    let castle = mv(&b, "b1a1", false);
    assert!(castle.is_castling());
    assert_eq!(b.move_to_uci(castle, false), "b1a1");
    assert_eq!(b.move_to_uci(step, false), "b1c1");
}

/// Every legal move's text, in either notation, names that move and no other,
/// and never has from = to: over the perft suite's positions and random games
/// from them (Chess960 setups included).
#[test]
fn every_move_text_names_exactly_one_move() {
    let mut rng = Pcg64::seed_from_u64(12);
    let mut fens: Vec<String> = common::perft_cases().into_iter().map(|c| c.fen).collect();
    fens.extend(
        ["k4r2/8/8/8/4b2p/7P/7P/6KR w K - 0 1", "4k3/8/8/8/8/8/8/RK6 w Q - 0 1"].map(String::from),
    );
    let mut checked = 0;
    for fen in &fens {
        let mut b = board(fen);
        for _ in 0..40 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            for chess960 in [false, true] {
                let mut seen = std::collections::HashSet::new();
                for &m in moves.iter() {
                    let text = b.move_to_uci(m, chess960);
                    assert_ne!(text[0..2], text[2..4], "{fen}: {m:?} written {text}");
                    assert!(seen.insert(text.clone()), "{}: {text} twice", b.to_fen(true));
                    assert_eq!(b.parse_uci_move(&text, chess960), Ok(m), "{}", b.to_fen(true));
                    checked += 1;
                }
            }
            b.play(moves[rng.next_u32() as usize % moves.len()]);
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// The halfmove clock stops where the FEN parser's range ends, so a board's FEN
/// always reads back (issue 12: `d` printed a clock `position fen` refused).
#[test]
fn halfmove_clock_stays_within_the_fen_range() {
    let max = board::MAX_HALFMOVE_CLOCK;
    let b = after(&format!("4k3/8/8/8/8/8/8/4K2R w - - {max} 1"), &["h1h2", "e8d8"], false);
    assert_eq!(b.halfmove_clock(), max);
    assert_eq!(board(&b.to_fen(true)), b);
}

// ---- the incremental-key check can fail ----------------------------------------------------

#[test]
fn corrupted_key_is_detected() {
    let mut b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert!(b.incremental_state_is_consistent());
    b.xor_key_for_testing(zobrist::SIDE);
    assert!(!b.incremental_state_is_consistent());
    assert_ne!(b.key(), b.compute_key());
    b.xor_key_for_testing(zobrist::SIDE);
    assert!(b.incremental_state_is_consistent());
    // A single flipped bit is enough.
    b.xor_key_for_testing(1 << 37);
    assert!(!b.incremental_state_is_consistent());
}

/// In builds with debug assertions, playing a move from a board whose key is
/// wrong trips the assertion `play_unchecked` makes after every move.
#[test]
#[cfg(debug_assertions)]
fn debug_assertion_catches_a_wrong_key_after_a_move() {
    let mut b = Board::startpos();
    b.xor_key_for_testing(0x1234);
    let m = mv(&b, "e2e4", false);
    let result = std::panic::catch_unwind(move || {
        let mut b = b;
        b.play_unchecked(m);
    });
    assert!(result.is_err(), "the debug assertion did not fire");
}

// ---- perft helpers -------------------------------------------------------------------------

#[test]
fn divide_sums_to_perft() {
    let b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let divide = board::divide(&b, 3);
    assert_eq!(divide.len(), 48);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 97_862);
    assert_eq!(board::perft(&b, 0), 1);
    assert_eq!(board::divide(&b, 1).iter().map(|(_, n)| n).sum::<u64>(), 48);
}

#[test]
fn move_list_and_move_bits() {
    assert!(Move::NULL.is_null());
    assert!(!Board::startpos().is_legal(Move::NULL));
    let b = board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let promos: Vec<_> = b.legal_moves().iter().filter_map(|m| m.promotion()).collect();
    assert_eq!(promos.len(), 4);
    for m in b.legal_moves().iter() {
        assert_eq!(Move::from_bits(m.bits()), *m);
    }
}

#[test]
fn board_is_small_and_copy() {
    // Copy-make copies the whole board for every move: keep it within two cache lines.
    fn assert_copy<T: Copy>() {}
    assert_copy::<Board>();
    let size = std::mem::size_of::<Board>();
    println!("size_of::<Board>() = {size}");
    assert!(size <= 128, "Board is {size} bytes");
    assert_eq!(std::mem::size_of::<Move>(), 2);
}

/// `piece_on` names the kind whose bitboard holds the square, and nothing on
/// an empty square: on every square of the perft suite's positions and of
/// random games from them.
#[test]
fn piece_on_names_the_kind_on_each_square() {
    let mut rng = Pcg64::seed_from_u64(13);
    let mut checked = 0;
    for case in common::perft_cases() {
        let mut b = board(&case.fen);
        for _ in 0..40 {
            for sq in Square::ALL {
                let expected = board::Piece::ALL.into_iter().find(|&p| b.pieces(p).has(sq));
                assert_eq!(b.piece_on(sq), expected, "{} on {sq}", b.to_fen(true));
                checked += 1;
            }
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.play(moves[rng.next_u32() as usize % moves.len()]);
        }
    }
    assert!(checked > 100_000, "{checked}");
}

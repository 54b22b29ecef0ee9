//! Differential test against shakmaty: random playouts from every `perft.epd`
//! position, from a sample of `openings.epd`, from all 960 Chess960 start
//! positions and from random (legal) piece placements. After every move the two
//! implementations must agree on the legal move set, the FEN, check, checkmate,
//! stalemate and insufficient material, and Tessera's own invariants must hold:
//! incremental keys equal recomputed keys, `gives_check` (and `gives_check_with`) equals "the opponent is
//! in check after the move", `is_legal` accepts exactly the generated moves (also
//! for arbitrary 16-bit values), noisy + quiet = legal, UCI text round-trips, and
//! SAN (with check and mate marks) is shakmaty's and reads back.
//!
//! The default run checks about 200,000 positions in the dev profile (about a
//! minute on two cores); the `#[ignore]`d tests check millions (`cargo test -p board --release --
//! --ignored`). Run with `--nocapture` to see the counts.

mod common;

use board::{Board, Color, GameStatus, Move, Piece, Square};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, PositionErrorKinds};
use std::collections::{HashMap, HashSet};

/// How much work one run does.
#[derive(Clone, Copy)]
struct Budget {
    /// Random playouts from each start position.
    playouts: usize,
    /// Maximum plies of one playout (it also stops at checkmate, stalemate and
    /// insufficient material).
    max_plies: usize,
    /// Fully random 16-bit values checked with `is_legal` per position.
    random_bits: usize,
    /// Legal moves per position whose 16 kind/promotion variants are checked with
    /// `is_legal` (`usize::MAX`: all of them).
    variant_moves: usize,
}

const QUICK: Budget = Budget { playouts: 4, max_plies: 200, random_bits: 16, variant_moves: 3 };
const LARGE: Budget = Budget { playouts: 24, max_plies: 400, random_bits: 64, variant_moves: 8 };

/// What a run checked.
#[derive(Default, Debug)]
struct Stats {
    games: u64,
    positions: u64,
    legal_moves: u64,
    is_legal_values: u64,
    checkmates: u64,
    stalemates: u64,
    insufficient: u64,
    en_passant_positions: u64,
    castling_moves: u64,
    promotions: u64,
}

/// One random playout driver: both boards, the move-text convention, and the
/// key <-> position maps of the current start position (collision check).
struct Game<'a> {
    ours: Board,
    theirs: Chess,
    chess960: bool,
    mode: CastlingMode,
    keys: &'a mut KeyMaps,
}

/// Per start position: our key of each position seen (FEN without clocks) and the
/// position of each key, to check "same position <=> same key".
#[derive(Default)]
struct KeyMaps {
    by_position: HashMap<String, u64>,
    by_key: HashMap<u64, String>,
}

impl KeyMaps {
    fn record(&mut self, fen: &str, key: u64) {
        let core: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if let Some(&old) = self.by_position.get(&core) {
            assert_eq!(old, key, "one position, two keys: {core}");
        } else {
            self.by_position.insert(core.clone(), key);
        }
        if let Some(old) = self.by_key.get(&key) {
            assert_eq!(old, &core, "key collision {key:016x}");
        } else {
            self.by_key.insert(key, core);
        }
    }
}

fn uci_of(m: shakmaty::Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

fn is_noisy(m: shakmaty::Move) -> bool {
    m.is_capture() || m.is_promotion()
}

fn set_of(board: &Board, moves: &[Move], chess960: bool) -> HashSet<String> {
    moves.iter().map(|&m| board.move_to_uci(m, chess960)).collect()
}

impl Game<'_> {
    /// Every per-position check; returns shakmaty's moves by UCI text.
    fn check_position(
        &mut self,
        rng: &mut Pcg64,
        budget: Budget,
        stats: &mut Stats,
    ) -> HashMap<String, shakmaty::Move> {
        let b = self.ours;
        let c960 = self.chess960;
        stats.positions += 1;

        // Incremental state.
        assert_eq!(b.key(), b.compute_key(), "{}", b.to_fen(true));
        assert_eq!(b.pawn_key(), b.compute_pawn_key(), "{}", b.to_fen(true));
        assert!(b.incremental_state_is_consistent(), "{}", b.to_fen(true));

        // FEN, both notations, and the FEN round trip.
        let their_fen = Fen::from_position(&self.theirs, EnPassantMode::Legal).to_string();
        let fen = b.to_fen(c960);
        assert_eq!(fen, their_fen, "FEN differs");
        if !c960 {
            // Standard games only have outermost rooks, so X-FEN is plain KQkq.
            assert_eq!(b.to_fen(true), fen);
        }
        let reparsed = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(reparsed, b, "FEN round trip changed the board: {fen}");
        self.keys.record(&fen, b.key());
        if b.en_passant().is_some() {
            stats.en_passant_positions += 1;
        }

        // Check state.
        assert_eq!(b.in_check(), self.theirs.is_check(), "{fen}");
        assert_eq!(b.checkers().0, self.theirs.checkers().0, "{fen}");

        // Legal moves as sets of UCI text.
        let list = b.legal_moves();
        let ours = set_of(&b, &list, c960);
        assert_eq!(ours.len(), list.len(), "duplicate moves in {fen}");
        let their_moves: HashMap<String, shakmaty::Move> =
            self.theirs.legal_moves().into_iter().map(|m| (uci_of(m, self.mode), m)).collect();
        let theirs: HashSet<String> = their_moves.keys().cloned().collect();
        if ours != theirs {
            let mut extra: Vec<_> = ours.difference(&theirs).collect();
            let mut missing: Vec<_> = theirs.difference(&ours).collect();
            extra.sort();
            missing.sort();
            panic!("move sets differ in {fen}: extra {extra:?}, missing {missing:?}");
        }
        assert_eq!(b.count_legal_moves(), list.len() as u64, "{fen}");
        assert_eq!(b.has_legal_move(), !list.is_empty(), "{fen}");
        stats.legal_moves += list.len() as u64;

        // Noisy + quiet = legal; noisy = captures and promotions.
        let mut noisy = board::MoveList::new();
        let mut quiet = board::MoveList::new();
        b.noisy_moves(&mut noisy);
        b.quiet_moves(&mut quiet);
        assert_eq!(noisy.len() + quiet.len(), list.len(), "{fen}");
        let noisy_set = set_of(&b, &noisy, c960);
        let quiet_set = set_of(&b, &quiet, c960);
        assert!(noisy_set.is_disjoint(&quiet_set), "{fen}");
        let their_noisy: HashSet<String> =
            their_moves.iter().filter(|(_, m)| is_noisy(**m)).map(|(s, _)| s.clone()).collect();
        assert_eq!(noisy_set, their_noisy, "noisy moves differ in {fen}");

        // SAN, with its check and mate marks, and its round trip.
        for &mv in list.iter() {
            let san = b.move_to_san(mv);
            let theirs = &their_moves[&b.move_to_uci(mv, c960)];
            let expected = SanPlus::from_move(self.theirs.clone(), *theirs).to_string();
            assert_eq!(san, expected, "SAN differs in {fen}");
            assert_eq!(b.parse_san(&san), Ok(mv), "SAN {san} does not read back in {fen}");
        }

        // Game end.
        let insufficient = self.theirs.is_insufficient_material();
        assert_eq!(b.is_insufficient_material(), insufficient, "{fen}");
        let expected = if self.theirs.is_checkmate() {
            stats.checkmates += 1;
            GameStatus::Checkmate
        } else if self.theirs.is_stalemate() {
            stats.stalemates += 1;
            GameStatus::Stalemate
        } else if insufficient {
            stats.insufficient += 1;
            GameStatus::InsufficientMaterial
        } else if self.theirs.halfmoves() >= 100 {
            GameStatus::FiftyMoveRule
        } else {
            GameStatus::Ongoing
        };
        assert_eq!(b.status(), expected, "{fen}");

        // Per move: is_legal, gives_check, UCI round trip, the child's invariants.
        let legal_bits: HashSet<u16> = list.iter().map(|m| m.bits()).collect();
        let check_squares = b.check_squares();
        for &mv in list.iter() {
            assert!(b.is_legal(mv), "{mv:?} generated but not is_legal in {fen}");
            let mut child = b;
            assert_eq!(child.try_play(mv), Ok(()));
            assert_eq!(b.gives_check(mv), child.in_check(), "gives_check({mv:?}) in {fen}");
            assert_eq!(
                b.gives_check_with(mv, &check_squares),
                child.in_check(),
                "gives_check_with({mv:?}) in {fen}"
            );
            assert_eq!(child.key(), child.compute_key(), "after {mv:?} in {fen}");
            let text = b.move_to_uci(mv, c960);
            assert_eq!(b.parse_uci_move(&text, c960), Ok(mv), "{text} in {fen}");
            if mv.is_castling() {
                stats.castling_moves += 1;
                assert!(!b.in_check());
                if !c960 {
                    // Standard chess also reads the king-takes-rook form.
                    let ktr = format!("{}{}", mv.from(), mv.to());
                    assert_eq!(b.parse_uci_move(&ktr, false), Ok(mv), "{ktr} in {fen}");
                }
            }
            if mv.promotion().is_some() {
                stats.promotions += 1;
            }
        }

        // `is_legal` on arbitrary 16-bit values: the kind/promotion variants of some
        // legal moves, random values from our own pieces, and fully random values.
        let mut probe = |x: u16| {
            stats.is_legal_values += 1;
            let mv = Move::from_bits(x);
            let legal = legal_bits.contains(&x);
            assert_eq!(b.is_legal(mv), legal, "is_legal({mv:?} = {x:#06x}) in {fen}");
            if !legal {
                let mut copy = b;
                assert!(copy.try_play(mv).is_err());
                assert_eq!(copy, b, "a failed try_play changed the board");
            }
        };
        probe(0);
        let n = list.len().min(budget.variant_moves);
        for i in 0..n {
            let idx = if n == list.len() { i } else { rng.next_u32() as usize % list.len() };
            let base = list[idx].bits() & 0x0fff;
            for high in 0..16u16 {
                probe(base | high << 12);
            }
        }
        let own: Vec<Square> = b.colors(b.side_to_move()).collect();
        for _ in 0..budget.random_bits {
            let x = rng.next_u32() as u16;
            probe(x);
            probe((x & !63) | own[x as usize % own.len()] as u16);
        }

        their_moves
    }

    /// Plays random moves until the game ends or `max_plies`.
    fn playout(&mut self, rng: &mut Pcg64, budget: Budget, stats: &mut Stats) {
        stats.games += 1;
        for _ in 0..budget.max_plies {
            let their_moves = self.check_position(rng, budget, stats);
            if their_moves.is_empty() || self.ours.is_insufficient_material() {
                return;
            }
            let list = self.ours.legal_moves();
            let mv = list[rng.next_u32() as usize % list.len()];
            let text = self.ours.move_to_uci(mv, self.chess960);
            let theirs = their_moves[&text];
            self.ours.play(mv);
            self.theirs.play_unchecked(theirs);
        }
        self.check_position(rng, budget, stats);
    }
}

/// Runs `budget.playouts` playouts from `fen` in both implementations.
fn run_from(fen: &str, chess960: bool, rng: &mut Pcg64, budget: Budget, stats: &mut Stats) {
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    let ours = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let setup = Fen::from_ascii(fen.as_bytes()).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let theirs: Chess = match setup.into_position(mode) {
        Ok(pos) => pos,
        // perft.epd has positions with checks no game can reach (two aligned
        // checkers): shakmaty rejects those unless told to accept them.
        Err(e) => e.ignore_impossible_check().unwrap_or_else(|e| panic!("{fen}: {e}")),
    };
    let mut keys = KeyMaps::default();
    for _ in 0..budget.playouts {
        Game { ours, theirs: theirs.clone(), chess960, mode, keys: &mut keys }
            .playout(rng, budget, stats);
    }
}

fn report(name: &str, stats: &Stats, elapsed: std::time::Duration) {
    println!("{name}: {stats:?} in {:.1} s", elapsed.as_secs_f64());
}

fn perft_epd(budget: Budget, seed: u64) -> Stats {
    let start = std::time::Instant::now();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut stats = Stats::default();
    for case in common::perft_cases() {
        run_from(&case.fen, false, &mut rng, budget, &mut stats);
    }
    report("perft.epd", &stats, start.elapsed());
    stats
}

fn openings(budget: Budget, every: usize, seed: u64) -> Stats {
    let start = std::time::Instant::now();
    let path = common::data_dir().join("openings.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut stats = Stats::default();
    for line in text.lines().step_by(every) {
        run_from(line.trim(), false, &mut rng, budget, &mut stats);
    }
    report("openings.epd", &stats, start.elapsed());
    stats
}

// ---- Chess960 ------------------------------------------------------------------

/// The back rank of Chess960 start position `n` (0..960) in the standard
/// (Scharnagl) numbering; 518 is the standard start position.
fn chess960_back_rank(n: usize) -> [char; 8] {
    assert!(n < 960);
    let mut rank = [' '; 8];
    let mut n = n;
    rank[2 * (n % 4) + 1] = 'B'; // light-squared bishop: b, d, f or h
    n /= 4;
    rank[2 * (n % 4)] = 'B'; // dark-squared bishop: a, c, e or g
    n /= 4;
    let place_in_empty = |rank: &mut [char; 8], k: usize, piece: char| {
        let file = (0..8).filter(|&f| rank[f] == ' ').nth(k).expect("an empty file");
        rank[file] = piece;
    };
    place_in_empty(&mut rank, n % 6, 'Q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (a, b) = KNIGHTS[n];
    place_in_empty(&mut rank, b, 'N'); // the later one first, so `a` still indexes right
    place_in_empty(&mut rank, a, 'N');
    for piece in ['R', 'K', 'R'] {
        place_in_empty(&mut rank, 0, piece);
    }
    rank
}

/// The FEN of Chess960 start position `n`; castling in Shredder-FEN (`HAha`) for
/// even `n` and X-FEN (`KQkq`) for odd `n`, to exercise both parsers.
fn chess960_fen(n: usize) -> String {
    let rank = chess960_back_rank(n);
    let white: String = rank.iter().collect();
    let black = white.to_ascii_lowercase();
    let castling = if n.is_multiple_of(2) {
        let rooks: Vec<char> =
            (0..8).filter(|&f| rank[f] == 'R').map(|f| (b'a' + f as u8) as char).collect();
        format!(
            "{}{}{}{}",
            rooks[1].to_ascii_uppercase(),
            rooks[0].to_ascii_uppercase(),
            rooks[1],
            rooks[0]
        )
    } else {
        "KQkq".to_string()
    };
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

#[test]
fn chess960_numbering() {
    let all: HashSet<[char; 8]> = (0..960).map(chess960_back_rank).collect();
    assert_eq!(all.len(), 960);
    assert_eq!(chess960_back_rank(518).iter().collect::<String>(), "RNBQKBNR");
    assert_eq!(chess960_back_rank(0).iter().collect::<String>(), "BBQNNRKR");
    for rank in &all {
        let king = rank.iter().position(|&c| c == 'K').unwrap();
        let rooks: Vec<usize> = (0..8).filter(|&f| rank[f] == 'R').collect();
        assert!(rooks[0] < king && king < rooks[1]);
        let bishops: Vec<usize> = (0..8).filter(|&f| rank[f] == 'B').collect();
        assert_ne!(bishops[0] % 2, bishops[1] % 2);
    }
    // Perft of a few start positions against shakmaty.
    for n in [0, 1, 518, 959, 123, 700] {
        let fen = chess960_fen(n);
        let ours = Board::from_fen(&fen).unwrap();
        let theirs: Chess =
            Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Chess960).unwrap();
        assert_eq!(board::perft(&ours, 3), shakmaty::perft(&theirs, 3), "{fen}");
    }
}

fn chess960(budget: Budget, positions: impl Iterator<Item = usize>, seed: u64) -> Stats {
    let start = std::time::Instant::now();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut stats = Stats::default();
    for n in positions {
        run_from(&chess960_fen(n), true, &mut rng, budget, &mut stats);
    }
    report("chess960", &stats, start.elapsed());
    stats
}

// ---- random placements -------------------------------------------------------------

/// A random placement: two kings and up to `max_extra` other pieces, random side
/// to move, random castling rights (outermost rooks, king on its back rank) and an
/// en-passant square when one is possible. Not always a legal position.
fn random_fen(rng: &mut Pcg64, max_extra: usize) -> String {
    let mut squares: [Option<(Color, Piece)>; 64] = [None; 64];
    let free = |rng: &mut Pcg64, squares: &[Option<(Color, Piece)>; 64]| loop {
        let sq = rng.next_u32() as usize % 64;
        if squares[sq].is_none() {
            return sq;
        }
    };
    // Kings on their back ranks half of the time, for castling rights.
    for color in Color::ALL {
        let sq = if rng.next_u32().is_multiple_of(2) {
            let back = if color == Color::White { 0 } else { 56 };
            let sq = back + rng.next_u32() as usize % 8;
            if squares[sq].is_some() { free(rng, &squares) } else { sq }
        } else {
            free(rng, &squares)
        };
        squares[sq] = Some((color, Piece::King));
    }
    let extra = rng.next_u32() as usize % (max_extra + 1);
    for _ in 0..extra {
        let color = Color::ALL[rng.next_u32() as usize % 2];
        let piece =
            [Piece::Pawn, Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Rook]
                [rng.next_u32() as usize % 6];
        let piece = if rng.next_u32().is_multiple_of(8) { Piece::Queen } else { piece };
        let sq = free(rng, &squares);
        if piece == Piece::Pawn && !(8..56).contains(&sq) {
            continue;
        }
        // Rooks like their back rank (castling).
        let sq = if piece == Piece::Rook && rng.next_u32().is_multiple_of(2) {
            let back = if color == Color::White { 0 } else { 56 };
            let s = back + rng.next_u32() as usize % 8;
            if squares[s].is_none() { s } else { sq }
        } else {
            sq
        };
        squares[sq] = Some((color, piece));
    }
    let side = Color::ALL[rng.next_u32() as usize % 2];

    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                None => empty += 1,
                Some((color, piece)) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = piece.to_char();
                    placement.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
                }
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }

    // Castling: the outermost rook on each side of a back-rank king, half of the time.
    let mut castling = String::new();
    for color in Color::ALL {
        let back = if color == Color::White { 0 } else { 56 };
        let Some(king) = (0..8).find(|&f| squares[back + f] == Some((color, Piece::King))) else {
            continue;
        };
        let rooks: Vec<usize> =
            (0..8).filter(|&f| squares[back + f] == Some((color, Piece::Rook))).collect();
        let short = rooks.iter().copied().filter(|&f| f > king).max();
        let long = rooks.iter().copied().filter(|&f| f < king).min();
        for file in [short, long].into_iter().flatten() {
            if rng.next_u32().is_multiple_of(2) {
                let c = (b'a' + file as u8) as char;
                castling.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }

    // En passant: a pawn of the side not to move on its fourth rank with the two
    // squares behind it empty.
    let (pawn_rank, dir): (usize, isize) = if side == Color::White { (4, 1) } else { (3, -1) };
    let candidates: Vec<usize> = (0..8)
        .filter(|&f| {
            let sq = pawn_rank * 8 + f;
            let behind = (sq as isize + 8 * dir) as usize;
            let origin = (sq as isize + 16 * dir) as usize;
            squares[sq] == Some((!side, Piece::Pawn))
                && squares[behind].is_none()
                && squares[origin].is_none()
        })
        .collect();
    let ep = if !candidates.is_empty() && !rng.next_u32().is_multiple_of(4) {
        let f = candidates[rng.next_u32() as usize % candidates.len()];
        let rank = if side == Color::White { '6' } else { '3' };
        format!("{}{rank}", (b'a' + f as u8) as char)
    } else {
        "-".to_string()
    };
    let halfmove = rng.next_u32() % 100;
    let fullmove = 1 + rng.next_u32() % 100;
    format!("{placement} {} {castling} {ep} {halfmove} {fullmove}", side.to_char())
}

fn random_positions(budget: Budget, count: usize, seed: u64) -> Stats {
    let start = std::time::Instant::now();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut stats = Stats::default();
    let (mut both, mut only_ours) = (0, 0);
    while both < count {
        let fen = random_fen(&mut rng, 14);
        let ours = Board::from_fen(&fen);
        let theirs = Fen::from_ascii(fen.as_bytes())
            .expect("shakmaty parses the syntax")
            .into_position::<Chess>(CastlingMode::Chess960);
        match (&ours, &theirs) {
            (Ok(_), Ok(_)) => {
                both += 1;
                run_from(&fen, true, &mut rng, budget, &mut stats);
            }
            (Ok(_), Err(e)) => {
                // We accept positions shakmaty calls unreachable (impossible checks,
                // more material than promotions allow); nothing else.
                let allowed =
                    PositionErrorKinds::IMPOSSIBLE_CHECK | PositionErrorKinds::TOO_MUCH_MATERIAL;
                assert!(allowed.contains(e.kinds()), "{fen}: we accept, shakmaty says {e}");
                only_ours += 1;
            }
            (Err(ours), Ok(_)) => panic!("{fen}: shakmaty accepts, we say {ours}"),
            (Err(_), Err(_)) => {}
        }
    }
    println!("random positions: {both} accepted by both, {only_ours} only by us");
    report("random positions", &stats, start.elapsed());
    stats
}

// ---- the tests -----------------------------------------------------------------------

#[test]
fn differential_perft_epd() {
    let stats = perft_epd(QUICK, 1);
    assert!(stats.positions > 20_000, "{stats:?}");
    assert!(stats.en_passant_positions > 0 && stats.promotions > 0 && stats.castling_moves > 0);
}

#[test]
fn differential_openings() {
    let stats = openings(Budget { playouts: 1, ..QUICK }, 40, 2);
    assert!(stats.positions > 10_000, "{stats:?}");
}

#[test]
fn differential_chess960() {
    // Every start position, with one playout of up to 60 plies each.
    let stats = chess960(Budget { playouts: 1, max_plies: 60, ..QUICK }, 0..960, 3);
    assert!(stats.positions > 40_000, "{stats:?}");
    assert!(stats.castling_moves > 1000, "{stats:?}");
}

#[test]
fn differential_random_positions() {
    let stats = random_positions(Budget { playouts: 1, max_plies: 40, ..QUICK }, 1500, 4);
    assert!(stats.checkmates + stats.stalemates > 0, "{stats:?}");
}

#[test]
#[ignore = "millions of positions; run with --release -- --ignored"]
fn differential_large_perft_epd() {
    perft_epd(Budget { playouts: 16, max_plies: 300, ..LARGE }, 11);
}

#[test]
#[ignore = "millions of positions; run with --release -- --ignored"]
fn differential_large_openings() {
    openings(Budget { playouts: 1, max_plies: 300, ..LARGE }, 2, 12);
}

#[test]
#[ignore = "millions of positions; run with --release -- --ignored"]
fn differential_large_chess960() {
    chess960(Budget { playouts: 4, max_plies: 300, ..LARGE }, 0..960, 13);
}

#[test]
#[ignore = "millions of positions; run with --release -- --ignored"]
fn differential_large_random_positions() {
    random_positions(Budget { playouts: 2, max_plies: 100, ..LARGE }, 20_000, 14);
}

/// Exhaustive `is_legal` over all 65 536 values in some tricky positions.
#[test]
fn is_legal_exhaustive() {
    let fens = [
        board::STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
        "1r1k4/8/8/8/8/8/8/1KR4R w Cb - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    for fen in fens {
        let b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let legal: HashSet<u16> = b.legal_moves().iter().map(|m| m.bits()).collect();
        let accepted: HashSet<u16> =
            (0..=u16::MAX).filter(|&x| b.is_legal(Move::from_bits(x))).collect();
        assert_eq!(accepted, legal, "{fen}");
    }
}

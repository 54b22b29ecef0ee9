//! The evaluation: material and piece-square tables, mobility, pawn structure,
//! passed pawns, king safety, threats, bishop pair, rooks on open files and
//! tempo, blended between middlegame and endgame by the phase.

use crate::layout::*;
use crate::pawns::{PawnInfo, front_span, pawn_structure};
use crate::{MAX_PHASE, PawnCache, S, Trace};
use board::*;

/// The game phase: 24 with all pieces on, 0 with none (pawns do not count).
pub fn phase(board: &Board) -> i32 {
    let minors = board.pieces(Piece::Knight).count() + board.pieces(Piece::Bishop).count();
    let rooks = board.pieces(Piece::Rook).count();
    let queens = board.pieces(Piece::Queen).count();
    ((minors + 2 * rooks + 4 * queens) as i32).min(MAX_PHASE)
}

/// Attack maps of one side, built while scoring its pieces and used by the threat terms.
#[derive(Default, Clone, Copy)]
struct Attacks {
    by_piece: [Bitboard; 6],
    all: Bitboard,
}

#[inline(always)]
fn piece_attacks(piece: Piece, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match piece {
        Piece::Pawn => pawn_attacks(color, sq),
        Piece::Knight => knight_attacks(sq),
        Piece::Bishop => bishop_attacks(sq, occ),
        Piece::Rook => rook_attacks(sq, occ),
        Piece::Queen => queen_attacks(sq, occ),
        Piece::King => king_attacks(sq),
    }
}

/// The evaluation from White's point of view as an unblended pair, with every
/// feature recorded into `trace`. `pawns` is the pawn structure (cached or not).
pub fn evaluate_pair<T: Trace>(board: &Board, w: &[S], pawns: &PawnInfo, trace: &mut T) -> S {
    let mut score = pawns.score;
    if T::ACTIVE {
        // The cache skipped the pawn features: record them now.
        pawn_structure(board, w, trace);
    }
    let occ = board.occupied();
    let pawn_maps = [board.pawn_attack_map(Color::White), board.pawn_attack_map(Color::Black)];
    let mut attacks = [Attacks::default(); 2];
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let them = !color;
        let mut add = |index: usize, count: i32| {
            score += w[index] * (sign * count);
            trace.add(index, sign * count);
        };
        let our = &mut attacks[color as usize];
        our.by_piece[Piece::Pawn as usize] = pawn_maps[color as usize];
        let king = board.king(color);
        our.by_piece[Piece::King as usize] = king_attacks(king);

        // Material and piece-square tables.
        for piece in Piece::ALL {
            for sq in board.colored_pieces(color, piece) {
                add(MATERIAL + piece as usize, 1);
                add(PSQT + piece as usize * 64 + sq.relative_to(color) as usize, 1);
            }
        }

        // Mobility (destinations not holding our pawns or king and not attacked by enemy
        // pawns) and attacks on the zone around the enemy king, one attack lookup per piece.
        let area = !(board.colored_pieces(color, Piece::Pawn)
            | board.colored_pieces(color, Piece::King))
            & !pawn_maps[them as usize];
        let enemy_king = board.king(them);
        let zone = king_attacks(enemy_king) | enemy_king.bitboard();
        let mut zone_attackers = 0;
        for (piece, table) in [
            (Piece::Knight, KNIGHT_MOBILITY),
            (Piece::Bishop, BISHOP_MOBILITY),
            (Piece::Rook, ROOK_MOBILITY),
            (Piece::Queen, QUEEN_MOBILITY),
        ] {
            for sq in board.colored_pieces(color, piece) {
                let att = piece_attacks(piece, color, sq, occ);
                our.by_piece[piece as usize] |= att;
                add(table + (att & area).count() as usize, 1);
                let hits = (att & zone).count() as i32;
                if hits > 0 {
                    zone_attackers += 1;
                    add(KING_ZONE_ATTACK + piece as usize, hits);
                }
            }
        }
        add(KING_ATTACKERS + zone_attackers.min(7), 1);
        our.all = our.by_piece.iter().fold(Bitboard::EMPTY, |a, &b| a | b);

        // Bishop pair; rooks on open and semi-open files.
        if board.colored_pieces(color, Piece::Bishop).has_many() {
            add(BISHOP_PAIR, 1);
        }
        for sq in board.colored_pieces(color, Piece::Rook) {
            let file = Bitboard::file(sq.file());
            if (file & board.pieces(Piece::Pawn)).is_empty() {
                add(ROOK_OPEN_FILE, 1);
            } else if (file & board.colored_pieces(color, Piece::Pawn)).is_empty() {
                add(ROOK_SEMI_OPEN_FILE, 1);
            }
        }

        // King shelter: our pawns just in front of the king, and files around it without one.
        let our_pawns = board.colored_pieces(color, Piece::Pawn);
        let ahead = {
            let one = king.bitboard().forward(color);
            let row = one | one.east() | one.west();
            row | row.forward(color)
        };
        add(KING_SHELTER, (our_pawns & ahead).count() as i32);
        let king_file = king.file() as i32;
        let open = File::ALL
            .into_iter()
            .filter(|&f| {
                (f as i32 - king_file).abs() <= 1 && (Bitboard::file(f) & our_pawns).is_empty()
            })
            .count();
        add(KING_OPEN_FILE, open as i32);

        // Passed pawns: king distances and a free path.
        for sq in pawns.passed[color as usize] {
            let rank = color.relative_rank(sq.rank()).index();
            let Some(stop) = sq.bitboard().forward(color).first() else { continue };
            add(PASSED_OWN_KING + rank, distance(stop, king) as i32);
            add(PASSED_ENEMY_KING + rank, distance(stop, enemy_king) as i32);
            if (front_span(color, sq) & occ).is_empty() {
                add(PASSED_FREE + rank, 1);
            }
        }
    }

    // Threats against enemy pieces, now that both sides' attack maps are complete.
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let them = !color;
        let mut add = |index: usize, count: i32| {
            score += w[index] * (sign * count);
            trace.add(index, sign * count);
        };
        let ours = &attacks[color as usize];
        let theirs = &attacks[them as usize];
        let minor = ours.by_piece[Piece::Knight as usize] | ours.by_piece[Piece::Bishop as usize];
        for victim in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            let targets = board.colored_pieces(them, victim);
            let v = victim as usize;
            add(THREAT_BY_PAWN + v, (targets & ours.by_piece[Piece::Pawn as usize]).count() as i32);
            add(THREAT_BY_MINOR + v, (targets & minor).count() as i32);
            add(THREAT_BY_ROOK + v, (targets & ours.by_piece[Piece::Rook as usize]).count() as i32);
        }
        let hanging = board.colors(them)
            & !board.pieces(Piece::Pawn)
            & !board.pieces(Piece::King)
            & ours.all
            & !theirs.all;
        add(HANGING, hanging.count() as i32);
    }
    let tempo = if board.side_to_move() == Color::White { 1 } else { -1 };
    score += w[TEMPO] * tempo;
    trace.add(TEMPO, tempo);
    score
}

/// The king (Chebyshev) distance between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> u32 {
    let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    df.max(dr)
}

/// How much of the endgame score a side can realise, in 1/64ths: no pawns and
/// at most a minor piece more than the defender is usually a draw.
pub fn endgame_scale(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    if board.colored_pieces(strong, Piece::Pawn).any() {
        return 64;
    }
    let material = |c: Color| {
        board.count(c, Piece::Knight) as i32 * 3
            + board.count(c, Piece::Bishop) as i32 * 3
            + board.count(c, Piece::Rook) as i32 * 5
            + board.count(c, Piece::Queen) as i32 * 9
    };
    if material(strong) - material(!strong) <= 3 { 8 } else { 64 }
}

/// The static evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(board: &Board, cache: &mut PawnCache) -> i32 {
    let w = &crate::WEIGHTS[..];
    let pawns = cache.get(board, w);
    let pair = evaluate_pair(board, w, &pawns, &mut crate::NoTrace);
    let scaled = S(pair.mg(), pair.eg() * endgame_scale(board, pair.eg()) / 64);
    let white = scaled.taper(phase(board));
    let v = if board.side_to_move() == Color::White { white } else { -white };
    v.clamp(-MAX_EVAL, MAX_EVAL)
}

/// The largest static evaluation returned (well inside the mate-score range).
pub const MAX_EVAL: i32 = 20_000;

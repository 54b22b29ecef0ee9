//! Material balances: a table's name (`KQvKR`), its number of pieces, and its
//! key, from the name or from a board, so that the tables found on disk and
//! the positions probed meet on one number.

use board::{Board, Color, Piece};

/// The number of pieces of a table name such as `KQvKR`, if it is one: two
/// sides of `KQRBNP` letters, each starting with its king, at most 7 pieces.
pub(crate) fn material_pieces(name: &str) -> Option<u32> {
    let (white, black) = name.split_once('v')?;
    let side_ok = |s: &str| {
        s.starts_with('K') && s[1..].chars().all(|c| matches!(c, 'Q' | 'R' | 'B' | 'N' | 'P'))
    };
    let pieces = (white.len() + black.len()) as u32;
    (side_ok(white) && side_ok(black) && pieces <= 7).then_some(pieces)
}

/// The material key of a table name such as `KQvKR`.
pub(crate) fn name_key(name: &str) -> Option<u32> {
    material_pieces(name)?;
    let (white, black) = name.split_once('v')?;
    let counts = |side: &str| {
        ['Q', 'R', 'B', 'N', 'P'].map(|letter| side.chars().filter(|&c| c == letter).count() as u32)
    };
    Some(material_key(counts(white), counts(black)))
}

/// A material balance with the sides in a fixed order: the key of a table.
/// Each side is the counts of queens, rooks, bishops, knights and pawns, three
/// bits each; the smaller half comes first, so `KQvKR` and `KRvKQ` are one key.
pub(crate) fn material_key(white: [u32; 5], black: [u32; 5]) -> u32 {
    let pack = |counts: [u32; 5]| counts.iter().fold(0u32, |k, &c| (k << 3) | c.min(7));
    let (w, b) = (pack(white), pack(black));
    (w.min(b) << 15) | w.max(b)
}

/// The key of the material on `board`.
pub(crate) fn board_material_key(board: &Board) -> u32 {
    let side = |color| {
        [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight, Piece::Pawn]
            .map(|piece| board.count(color, piece) as u32)
    };
    material_key(side(Color::White), side(Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names() {
        assert_eq!(material_pieces("KQvKR"), Some(4));
        assert_eq!(material_pieces("KvK"), Some(2));
        assert_eq!(material_pieces("KRPPvKRP"), Some(7));
        assert_eq!(material_pieces("KRPPvKRPP"), None);
        assert_eq!(material_pieces("KQKR"), None);
        assert_eq!(material_pieces("QvKR"), None);
        assert_eq!(material_pieces("KXvK"), None);
    }

    #[test]
    fn material_keys_ignore_which_side_is_which() {
        let key = |fen| board_material_key(&Board::from_fen(fen).unwrap());
        let kqvkr = name_key("KQvKR").unwrap();
        assert_eq!(key("8/8/8/8/8/2k5/8/KQ2r3 w - - 0 1"), kqvkr);
        assert_eq!(key("8/8/8/8/8/2k5/8/Kq2R3 w - - 0 1"), kqvkr);
        assert_eq!(name_key("KRvKQ"), Some(kqvkr));
        let knvkp = name_key("KNvKP").unwrap();
        assert_eq!(key("8/8/8/8/4P3/3k4/2n5/K7 w - - 0 1"), knvkp);
        assert_ne!(knvkp, name_key("KNPvK").unwrap());
        assert_ne!(kqvkr, name_key("KQvKB").unwrap());
    }
}

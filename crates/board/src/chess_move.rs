//! `Move`: a 16-bit move, and `MoveList`, a fixed-capacity list on the stack.
//!
//! | bits  | field                                                      |
//! |-------|------------------------------------------------------------|
//! | 0-5   | from square                                                |
//! | 6-11  | to square (for castling: the square of the castling rook)  |
//! | 12-13 | promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen        |
//! | 14-15 | kind: 0 normal, 1 promotion, 2 en passant, 3 castling       |
//!
//! Castling is encoded as "king takes own rook" in both standard chess and
//! Chess960, so one code path serves both; UCI text converts it to the king's
//! destination in standard chess (see [`crate::Board::move_to_uci`]).

use crate::{Piece, Square};
use std::fmt;

/// What kind of move a [`Move`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A quiet move, capture or pawn push.
    Normal = 0,
    /// A pawn reaching the last rank, with [`Move::promotion`] set.
    Promotion = 1,
    /// An en-passant capture (`to` is the en-passant square).
    EnPassant = 2,
    /// Castling (`to` is the castling rook's square).
    Castling = 3,
}

/// A move in 16 bits. `Move::NULL` (all zero) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The empty move (a1a1); also the "no move" marker in tables.
    pub const NULL: Move = Move(0);

    /// A normal move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }

    /// A move of the given kind; `promotion` is used only for [`MoveKind::Promotion`] and
    /// must be a knight, bishop, rook or queen.
    #[inline(always)]
    pub const fn with_kind(from: Square, to: Square, kind: MoveKind, promotion: Piece) -> Move {
        let promo = match kind {
            MoveKind::Promotion => (promotion as u16).wrapping_sub(1) & 3,
            _ => 0,
        };
        Move(from as u16 | (to as u16) << 6 | promo << 12 | (kind as u16) << 14)
    }

    /// The move from its 16-bit encoding (any value is accepted; check it with
    /// [`crate::Board::is_legal`] before playing it).
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The 16-bit encoding.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether this is [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::index_const((self.0 & 63) as usize)
    }

    /// The destination square (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::index_const((self.0 >> 6 & 63) as usize)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The promotion piece, for promotions.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Piece> {
        match self.kind() {
            MoveKind::Promotion => Some(Piece::index_const((self.0 >> 12 & 3) as usize + 1)),
            _ => None,
        }
    }

    /// Whether this is a castling move.
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        self.0 >> 14 == MoveKind::Castling as u16
    }

    /// Whether this is an en-passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 14 == MoveKind::EnPassant as u16
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.to_char())?;
        }
        match self.kind() {
            MoveKind::EnPassant => write!(f, "(ep)"),
            MoveKind::Castling => write!(f, "(castle)"),
            _ => Ok(()),
        }
    }
}

/// An upper bound on the legal moves of any position [`crate::Board`] can hold.
///
/// Reachable positions have at most 218, but the FEN parser accepts positions
/// no game reaches, so the bound is derived from what it does enforce: one king
/// a side, at most 16 men and 8 pawns, and every promoted piece paid for by a
/// missing pawn (playing moves keeps these true). The king has at most 8 steps
/// and 2 castlings; the other men are at best one queen (27 moves), two rooks
/// (14 each), two bishops (13 each), two knights (8 each) and eight pawns, each of
/// which is at best a promoted queen (27; a pawn itself has at most 3 × 4 = 12).
pub const MAX_MOVES: usize = 8 + 2 + 27 + 2 * 14 + 2 * 13 + 2 * 8 + 8 * 27;

/// A list of moves on the stack (no allocation), with room for every move of any position.
pub type MoveList = StackList<Move, MAX_MOVES>;

/// A list of at most `N` copyable items on the stack, whose storage is not
/// initialised until an item is pushed: the search creates several lists per
/// node (the picker's moves, their scores, the bad captures, the moves tried
/// before the best) and most of each is never used, so filling them first would
/// cost a few kilobytes of stores per node.
#[derive(Clone, Copy)]
pub struct StackList<T: Copy, const N: usize> {
    items: [std::mem::MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Default for StackList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> StackList<T, N> {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> Self {
        StackList { items: [std::mem::MaybeUninit::uninit(); N], len: 0 }
    }

    /// Appends an item. For a [`MoveList`] the capacity, [`MAX_MOVES`], holds
    /// every move of any position a [`crate::Board`] can hold; were that bound
    /// ever wrong, this panics rather than drop a move.
    #[inline(always)]
    pub fn push(&mut self, item: T) {
        self.items[self.len] = std::mem::MaybeUninit::new(item);
        self.len += 1;
    }

    /// Number of items.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the list holds `N` items: one more [`StackList::push`] would panic.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.len == N
    }

    /// The items as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `push` is the only way `len` grows, and it initialises
        // `items[len]` first, so `items[..len]` are initialised; `MaybeUninit<T>`
        // has the layout of `T`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }

    /// The items as a mutable slice (for in-place ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<const N: usize> StackList<Move, N> {
    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for StackList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a StackList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_list_holds_what_was_pushed_since_the_last_clear() {
        let mut list: StackList<i32, 4> = StackList::new();
        assert!(list.is_empty());
        for v in [7, -3, 12] {
            list.push(v);
        }
        assert_eq!(list.as_slice(), &[7, -3, 12]);
        assert!(!list.is_full());
        list.push(1);
        assert!(list.is_full());
        assert_eq!(list.as_slice(), &[7, -3, 12, 1]);
        list.as_mut_slice().swap(0, 2);
        assert_eq!(&*list, &[12, -3, 7, 1]);
        list.clear();
        list.push(5);
        assert_eq!(list.len(), 1);
        assert_eq!(list.as_slice(), &[5]);
        let copy = list;
        assert_eq!(copy.as_slice(), list.as_slice());
    }

    #[test]
    #[should_panic]
    fn pushing_past_the_capacity_panics_rather_than_dropping_an_item() {
        let mut list: StackList<Move, 2> = StackList::new();
        for _ in 0..3 {
            list.push(Move::NULL);
        }
    }
}

//! Where each evaluation term lives in the flat weight vector.
//!
//! The evaluation is a sum of `weight * coefficient` terms, tapered by phase,
//! so one flat vector of [`S`](crate::S) weights describes it completely; the
//! Texel tuner fits that vector and writes it back as `weights.rs`.

macro_rules! layout {
    ($($(#[$doc:meta])* $name:ident: $len:expr),* $(,)?) => {
        layout!(@offsets 0usize; $($(#[$doc])* $name: $len),*);
        /// The names and lengths of the terms, in order (for the tuner's output).
        pub const TERMS: &[(&str, usize, usize)] = &[$((stringify!($name), $name, $len)),*];
    };
    (@offsets $offset:expr; $(#[$doc:meta])* $name:ident: $len:expr $(, $(#[$rdoc:meta])* $rest:ident: $rlen:expr)*) => {
        $(#[$doc])*
        pub const $name: usize = $offset;
        layout!(@offsets $offset + $len; $($(#[$rdoc])* $rest: $rlen),*);
    };
    (@offsets $offset:expr;) => {
        /// The number of weights.
        pub const NUM_WEIGHTS: usize = $offset;
    };
}

layout! {
    /// Material value by piece kind (the king's entry is unused).
    MATERIAL: 6,
    /// Piece-square tables, `[piece][square]` from White's side (Black's squares are mirrored).
    PSQT: 6 * 64,
    /// Knight mobility by number of safe destinations (0..=8).
    KNIGHT_MOBILITY: 9,
    /// Bishop mobility (0..=13).
    BISHOP_MOBILITY: 14,
    /// Rook mobility (0..=14).
    ROOK_MOBILITY: 15,
    /// Queen mobility (0..=27).
    QUEEN_MOBILITY: 28,
    /// Passed pawn by relative rank.
    PASSED: 8,
    /// Extra for a passed pawn whose path to promotion is empty, by relative rank.
    PASSED_FREE: 8,
    /// Per square of distance from the passer's stop square to its own king, by relative rank.
    PASSED_OWN_KING: 8,
    /// Per square of distance from the passer's stop square to the enemy king, by relative rank.
    PASSED_ENEMY_KING: 8,
    /// A pawn with no friendly pawn on either adjacent file.
    ISOLATED: 1,
    /// A pawn with a friendly pawn in front of it on the same file.
    DOUBLED: 1,
    /// A pawn that cannot be defended by pawns and whose stop square an enemy pawn attacks.
    BACKWARD: 1,
    /// A pawn defended by a pawn or standing beside one, by relative rank.
    CONNECTED: 8,
    /// Two or more bishops.
    BISHOP_PAIR: 1,
    /// A rook on a file with no pawns.
    ROOK_OPEN_FILE: 1,
    /// A rook on a file with only enemy pawns.
    ROOK_SEMI_OPEN_FILE: 1,
    /// Per square of the enemy king's zone attacked, by attacking piece kind.
    KING_ZONE_ATTACK: 6,
    /// By number of pieces attacking the enemy king's zone (capped at 7).
    KING_ATTACKERS: 8,
    /// Per friendly pawn in the three files around the king, one or two ranks ahead.
    KING_SHELTER: 1,
    /// Per file around the king without a friendly pawn.
    KING_OPEN_FILE: 1,
    /// An enemy piece attacked by one of our pawns, by the victim's kind.
    THREAT_BY_PAWN: 6,
    /// An enemy piece attacked by one of our knights or bishops, by the victim's kind.
    THREAT_BY_MINOR: 6,
    /// An enemy piece attacked by one of our rooks, by the victim's kind.
    THREAT_BY_ROOK: 6,
    /// An enemy piece (not a pawn) we attack that no enemy piece defends.
    HANGING: 1,
    /// The side to move's bonus.
    TEMPO: 1,
}

//! The loaded tables and the three probes the engine makes.

use crate::adapter::BoardAdapter;
use crate::material::board_material_key;
use crate::rank::{self, RankedBy, RankedMove, RootOptions, RootProbe};
use crate::staging::Staging;
use crate::validate::{self, Kind, Rejected, Verify};
use crate::wdl::Wdl;
use board::{Board, CastlingRights, Color, MoveList, Piece};
use pyrrhic_rs::{DtzProbeValue, TBError, TableBases};
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::PathBuf;

/// What a load found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// The folders of the path list, in order.
    pub folders: Vec<PathBuf>,
    /// Usable WDL tables (`.rtbw`).
    pub wdl_tables: usize,
    /// Usable DTZ tables (`.rtbz`).
    pub dtz_tables: usize,
    /// The most pieces a loaded table covers (0 when nothing is loaded).
    pub max_pieces: u32,
    /// Table files that were skipped, and why.
    pub rejected: Vec<Rejected>,
    /// Folders that could not be listed, and why.
    pub unreadable_folders: Vec<(PathBuf, String)>,
}

impl fmt::Display for LoadReport {
    /// One line, for an `info string`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Syzygy: {} WDL and {} DTZ tables found in {} folder(s), up to {} pieces",
            self.wdl_tables,
            self.dtz_tables,
            self.folders.len(),
            self.max_pieces
        )?;
        for (folder, e) in &self.unreadable_folders {
            write!(f, "; cannot read folder {}: {e}", folder.display())?;
        }
        for r in &self.rejected {
            write!(f, "; skipped {r}")?;
        }
        Ok(())
    }
}

/// Why nothing could be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The path list names folders, but none holds a usable WDL table.
    NoTables(LoadReport),
    /// Another [`Tablebases`] with tables is alive: the prober allows one per
    /// process, so drop the old one first.
    AlreadyLoaded,
    /// The private folder of links could not be made.
    Staging(String),
    /// The prober refused the tables.
    Prober(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NoTables(report) => write!(f, "no usable tables: {report}"),
            LoadError::AlreadyLoaded => write!(f, "tablebases are already loaded"),
            LoadError::Staging(e) => write!(f, "cannot prepare the tables: {e}"),
            LoadError::Prober(e) => write!(f, "the prober refused the tables: {e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Loaded Syzygy tables, or none. Probes take `&self` and may run on any number
/// of threads at once.
pub struct Tablebases {
    loaded: Option<Loaded>,
}

struct Loaded {
    // Declared before `_staging` so that it is dropped first: the prober may
    // hold files of the staging folder open.
    prober: TableBases<BoardAdapter>,
    max_pieces: u32,
    /// The [`material_key`](crate::material::material_key)s of the loaded WDL tables. Only these are handed
    /// to the prober, which would otherwise try (and fail) to map a missing
    /// table on every probe of its material.
    wdl: KeySet,
    /// The [`material_key`](crate::material::material_key)s of the loaded DTZ tables.
    dtz: KeySet,
    _staging: Staging,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases").field("max_pieces", &self.max_pieces()).finish()
    }
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases::none()
    }
}

impl Tablebases {
    /// No tables: every probe returns `None`.
    pub fn none() -> Tablebases {
        Tablebases { loaded: None }
    }

    /// Loads the tables of a path list (see [`crate::split_path_list`]).
    ///
    /// Every `.rtbw`/`.rtbz` file is checked first ([`Verify`]); a bad file is
    /// skipped and listed in the report, and the first good file of each name
    /// (in folder order) is used. An empty list (or `<empty>`) loads nothing
    /// and is not an error.
    pub fn load(path_list: &str, verify: Verify) -> Result<(Tablebases, LoadReport), LoadError> {
        let mut report =
            LoadReport { folders: crate::split_path_list(path_list), ..LoadReport::default() };
        if report.folders.is_empty() {
            return Ok((Tablebases::none(), report));
        }
        let mut chosen: Vec<validate::TableFile> = Vec::new();
        let mut names = HashSet::new();
        for folder in &report.folders {
            let candidates = match validate::scan(folder) {
                Ok(c) => c,
                Err(e) => {
                    report.unreadable_folders.push((folder.clone(), e.to_string()));
                    continue;
                }
            };
            for candidate in candidates {
                if names.contains(&candidate.file_name()) {
                    continue;
                }
                match validate::check(&candidate, verify) {
                    Ok(()) => {
                        names.insert(candidate.file_name());
                        chosen.push(candidate);
                    }
                    Err(problem) => {
                        report.rejected.push(Rejected { path: candidate.path.clone(), problem })
                    }
                }
            }
        }
        report.wdl_tables = chosen.iter().filter(|c| c.kind == Kind::Wdl).count();
        report.dtz_tables = chosen.iter().filter(|c| c.kind == Kind::Dtz).count();
        if report.wdl_tables == 0 {
            return Err(LoadError::NoTables(report));
        }
        let staging = Staging::new().map_err(|e| LoadError::Staging(e.to_string()))?;
        for c in &chosen {
            staging.add(&c.file_name(), &c.path).map_err(|e| {
                LoadError::Staging(format!("cannot link {}: {e}", c.path.display()))
            })?;
        }
        let path = staging.prober_path().map_err(|e| LoadError::Staging(e.to_string()))?;
        let prober = TableBases::<BoardAdapter>::new(&path).map_err(|e| match e {
            TBError::AlreadyInitialized => LoadError::AlreadyLoaded,
            other => LoadError::Prober(format!("{other:?}")),
        })?;
        // Not `prober.max_pieces()`: pyrrhic-rs 0.2 registers every material up
        // to 7 pieces whether or not its file exists.
        let max_pieces = chosen.iter().map(|c| c.pieces).max().unwrap_or(0);
        report.max_pieces = max_pieces;
        let keys = |kind| chosen.iter().filter(|c| c.kind == kind).map(|c| c.key).collect();
        let loaded = Loaded {
            prober,
            max_pieces,
            wdl: keys(Kind::Wdl),
            dtz: keys(Kind::Dtz),
            _staging: staging,
        };
        Ok((Tablebases { loaded: Some(loaded) }, report))
    }

    /// Whether any table is loaded.
    pub fn is_loaded(&self) -> bool {
        self.loaded.is_some()
    }

    /// The most pieces (kings included) a loaded table covers; 0 without tables.
    pub fn max_pieces(&self) -> u32 {
        self.loaded.as_ref().map_or(0, |l| l.max_pieces)
    }

    /// Win/draw/loss for the side to move, for use inside the search.
    ///
    /// `None` without a table for the material, with castling rights, or with a
    /// nonzero halfmove clock: the verdict assumes the clock was just reset, so
    /// probe right after a capture or pawn move. Cursed wins and blessed losses
    /// are reported as such; the caller decides what the fifty-move rule means.
    /// Thread-safe.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        let loaded = self.probeable(board)?;
        if board.halfmove_clock() != 0 {
            return None;
        }
        raw_wdl(loaded, board)
    }

    /// The distance to zeroing of the position, in plies, signed like
    /// [`Wdl::signed`] (positive: the side to move wins; -1: it is mated), with
    /// the fifty-move counter taken as zero. `None` without the DTZ table.
    pub fn probe_dtz(&self, board: &Board) -> Option<i32> {
        let loaded = self.probeable(board)?;
        if !loaded.dtz.contains(&board_material_key(board)) {
            return None;
        }
        let (w, b, k, q, r, bi, n, p) = bitboards(board);
        let root = loaded
            .prober
            .probe_root(w, b, k, q, r, bi, n, p, 0, ep_square(board), is_white(board))
            .ok()?
            .root;
        match root {
            DtzProbeValue::DtzResult(d) => {
                let dtz = d.dtz as i32;
                Some(match Wdl::from_prober(d.wdl).signed() {
                    s if s < 0 => -dtz,
                    0 => 0,
                    _ => dtz,
                })
            }
            DtzProbeValue::Checkmate => Some(-1),
            DtzProbeValue::Stalemate => Some(0),
            DtzProbeValue::Failed => None,
        }
    }

    /// Ranks every legal root move ([`crate::RootProbe`]); by DTZ when the
    /// root's DTZ table is loaded, else by WDL. `None` when the position is not
    /// in the tables or has no legal move.
    ///
    /// Safe to call while other threads make WDL probes (both only read the
    /// mapped tables; the prober maps a table under its own lock), but it costs
    /// tens of microseconds: call it once per `go`, before the search starts.
    pub fn probe_root(&self, board: &Board, options: RootOptions) -> Option<RootProbe> {
        let loaded = self.probeable(board)?;
        let legal = board.legal_moves();
        if legal.is_empty() {
            return None;
        }
        if loaded.dtz.contains(&board_material_key(board))
            && let Some(probe) = root_by_dtz(loaded, board, &legal, options)
        {
            return Some(probe);
        }
        root_by_wdl(loaded, board, &legal, options)
    }

    fn probeable(&self, board: &Board) -> Option<&Loaded> {
        let loaded = self.loaded.as_ref()?;
        (board.castling_rights() == CastlingRights::NONE
            && board.occupied().count() <= loaded.max_pieces
            && loaded.wdl.contains(&board_material_key(board)))
        .then_some(loaded)
    }
}

/// A set of material keys, hashed by one multiplication: it is looked up on
/// every probe, where SipHash would cost a fifth of the probe.
type KeySet = HashSet<u32, BuildHasherDefault<KeyHasher>>;

#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, key: u32) {
        self.0 = (key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Bitboards = (u64, u64, u64, u64, u64, u64, u64, u64);

fn bitboards(board: &Board) -> Bitboards {
    (
        board.colors(Color::White).0,
        board.colors(Color::Black).0,
        board.pieces(Piece::King).0,
        board.pieces(Piece::Queen).0,
        board.pieces(Piece::Rook).0,
        board.pieces(Piece::Bishop).0,
        board.pieces(Piece::Knight).0,
        board.pieces(Piece::Pawn).0,
    )
}

/// The en-passant square for the prober (0 for none: a1 can never be one). The
/// board sets it only when an en-passant capture is legal, as the prober wants.
fn ep_square(board: &Board) -> u32 {
    board.en_passant().map_or(0, |sq| sq.index() as u32)
}

fn is_white(board: &Board) -> bool {
    board.side_to_move() == Color::White
}

/// WDL of the table (with the prober's capture resolution), ignoring the clock.
fn raw_wdl(loaded: &Loaded, board: &Board) -> Option<Wdl> {
    let (w, b, k, q, r, bi, n, p) = bitboards(board);
    let result =
        loaded.prober.probe_wdl(w, b, k, q, r, bi, n, p, ep_square(board), is_white(board));
    result.ok().map(Wdl::from_prober)
}

fn root_by_dtz(
    loaded: &Loaded,
    board: &Board,
    legal: &MoveList,
    options: RootOptions,
) -> Option<RootProbe> {
    let (w, b, k, q, r, bi, n, p) = bitboards(board);
    let clock = board.halfmove_clock().min(255) as u32;
    let probe = loaded
        .prober
        .probe_root(w, b, k, q, r, bi, n, p, clock, ep_square(board), is_white(board))
        .ok()?;
    if !matches!(probe.root, DtzProbeValue::DtzResult(_)) {
        return None;
    }
    let mut moves = Vec::with_capacity(legal.len());
    for value in &probe.moves[..probe.num_moves] {
        let DtzProbeValue::DtzResult(d) = value else { return None };
        let promotion = match d.promotion {
            pyrrhic_rs::Piece::Queen => Some(Piece::Queen),
            pyrrhic_rs::Piece::Rook => Some(Piece::Rook),
            pyrrhic_rs::Piece::Bishop => Some(Piece::Bishop),
            pyrrhic_rs::Piece::Knight => Some(Piece::Knight),
            _ => None,
        };
        let mv = *legal.as_slice().iter().find(|m| {
            m.from().index() == d.from_square as usize
                && m.to().index() == d.to_square as usize
                && m.promotion() == promotion
        })?;
        let dtz = match Wdl::from_prober(d.wdl).signed() {
            s if s < 0 => -(d.dtz as i32),
            0 => 0,
            _ => d.dtz as i32,
        };
        let rank = rank::dtz_rank(dtz, clock as i32, options.repeated);
        moves.push(RankedMove {
            mv,
            rank,
            wdl: rank::rank_wdl(rank, options.rule50),
            dtz: Some(dtz),
        });
    }
    if moves.len() != legal.len() {
        return None;
    }
    RootProbe::new(moves, RankedBy::Dtz)
}

fn root_by_wdl(
    loaded: &Loaded,
    board: &Board,
    legal: &MoveList,
    options: RootOptions,
) -> Option<RootProbe> {
    let mut moves = Vec::with_capacity(legal.len());
    for &mv in legal.as_slice() {
        let mut child = *board;
        child.play_unchecked(mv);
        let mut wdl = raw_wdl(loaded, &child)?.flip();
        if !options.rule50 {
            wdl = wdl.ignoring_rule50();
        }
        let rank = rank::wdl_rank(wdl);
        moves.push(RankedMove { mv, rank, wdl: rank::rank_wdl(rank, options.rule50), dtz: None });
    }
    RootProbe::new(moves, RankedBy::Wdl)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_tables_every_probe_is_none() {
        let tb = Tablebases::none();
        let board = Board::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
        assert!(!tb.is_loaded());
        assert_eq!(tb.max_pieces(), 0);
        assert_eq!(tb.probe_wdl(&board), None);
        assert_eq!(tb.probe_dtz(&board), None);
        assert_eq!(tb.probe_root(&board, RootOptions::default()), None);
    }
}

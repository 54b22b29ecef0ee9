//! One search thread's state, and the few methods through which the search
//! changes and evaluates its position.
//!
//! Every thread of the Lazy SMP pool owns a [`Worker`]: its own position,
//! stack, principal-variation table, histories and accumulators. Threads share
//! only the transposition table, the network, the stop flag and their published
//! node counts.
//!
//! The search itself is split by concern, one file each:
//!
//! | file | what |
//! |---|---|
//! | `worker/aspiration.rs` | [`Worker::aspiration`]: the root search with an aspiration window |
//! | `worker/search.rs` | [`Worker::search`]: the principal variation search, step by step |
//! | `worker/qsearch.rs` | [`Worker::qsearch`]: quiescence |
//! | `worker/table.rs` | how the search reads and writes the transposition table |

mod aspiration;
mod qsearch;
mod search;
mod table;

use crate::budget::{CHECK_INTERVAL, NodeBudget};
use crate::correction::CorrectionHistory;
use crate::history::{Histories, LOW_PLIES, PieceTo, QuietKeys};
use crate::numa::NodeNetwork;
use crate::params::{MAX_SEARCH_PLY, fifty_move_damping_base};
use crate::report::{Progress, RootLine};
use crate::root::RootMoves;
use crate::signals::Signals;
use crate::time::Clock;
use board::{Board, Color, LesserAttacks, Move, Position};
use eval::nnue::{Accumulator, AccumulatorCache, Network};
use std::sync::Arc;
use tt::{DECISIVE_BOUND, INFINITY, Record, TranspositionTable};

/// The static evaluation slot of a node in check (no evaluation is made there).
const NO_EVAL: i32 = -INFINITY;

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame {
    /// The static evaluation, corrected by correction history ([`NO_EVAL`] in check).
    static_eval: i32,
    /// The move made from this ply (to reach ply + 1), for continuation history.
    moved: PieceTo,
    /// The move a singular-extension search at this ply leaves out (null: none).
    excluded: Move,
    /// How many double extensions the line to this ply holds.
    double_extensions: u8,
    /// How many of the parent's children searched so far failed high here
    /// (Step 11 reduces more after many).
    cutoffs: u8,
    /// The late move reduction of the move that reached this ply, set by the
    /// parent and taken (reset to 0) by the node, for hindsight (Step 4b).
    reduction: i32,
}

impl Frame {
    const EMPTY: Frame = Frame {
        static_eval: NO_EVAL,
        moved: PieceTo::NONE,
        excluded: Move::NULL,
        double_extensions: 0,
        cutoffs: 0,
        reduction: 0,
    };
}

/// What a search needs from outside its thread, for one `go`.
pub(crate) struct SearchContext<'a> {
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// How many nodes this thread may search; its count, published.
    pub budget: NodeBudget<'a>,
    /// The search's clock: every thread reads its deadline.
    pub clock: &'a Clock,
    /// Whether this thread keeps the clock (the main thread of the leader):
    /// it follows `ponderhit`.
    pub keeps_clock: bool,
    /// The stop flag, which a reached limit sets for every thread.
    pub signals: &'a Signals,
    /// The Syzygy tables (none loaded: every probe is `None`).
    pub tb: &'a crate::tablebase::Tablebase,
    /// This thread's counts (its tablebase hits are counted there).
    pub counts: &'a crate::counters::ThreadCounts,
    /// The main thread's `info currmove` reports (`None` for the helpers).
    pub current_move: Option<crate::report::CurrentMoveReports<'a>>,
    /// Where deep stores go to be shared with other ranks (`None` outside a cluster).
    pub share: Option<Share<'a>>,
}

impl SearchContext<'_> {
    /// Called before each node: `true` means stop now. Otherwise the node is
    /// counted in `nodes`, and every [`CHECK_INTERVAL`] nodes the limits that
    /// are not checked at every node are (see `budget.rs`).
    #[inline(always)]
    pub fn enter_node(&self, nodes: &mut u64) -> bool {
        if self.budget.enter_node(nodes) {
            return true;
        }
        if nodes.is_multiple_of(CHECK_INTERVAL) {
            self.every_check_interval(*nodes);
        }
        false
    }

    /// The periodic check, having searched `nodes`: the budget's part (publish
    /// the count, the cluster's exchange, the total of `go nodes`), then the
    /// clock's (the main thread follows a `ponderhit`; every thread reads the
    /// deadline). A limit reached stops every thread at its next node.
    fn every_check_interval(&self, nodes: u64) {
        let spent = self.budget.check(nodes);
        if self.keeps_clock {
            self.clock.follow_ponderhit(self.signals);
        }
        if spent || self.clock.out_of_time() {
            self.signals.stop_threads();
        }
    }
}

/// A search thread's way of offering its deep stores to the other ranks of a cluster.
pub(crate) struct Share<'a> {
    pub cluster: &'a dyn crate::cluster::Cluster,
    /// Stores at least this deep are offered.
    pub depth: i32,
    /// The offering thread.
    pub thread: usize,
}

/// A search thread's private state.
pub struct Worker {
    /// Changed only through `make_move`, `unmake_move`, `make_null` and
    /// `unmake_null` (and `prepare`).
    position: Position,
    histories: Box<Histories>,
    /// What this thread's searches learned about the static evaluation.
    correction: CorrectionHistory,
    /// The evaluation network.
    network: Arc<Network>,
    /// The network's accumulators along the current line: `[0]` is the root's,
    /// `[accumulators_len - 1]` the current position's. A null move adds none:
    /// it moves no piece, so the position after it shares its parent's.
    accumulators: Box<[Accumulator]>,
    accumulators_len: usize,
    /// The half-accumulators a king move into another bucket is rebuilt from
    /// (emptied for each search, which may bring another network).
    accumulator_cache: AccumulatorCache,
    frames: Vec<Frame>,
    pv: Box<[[Move; MAX_SEARCH_PLY + 1]; MAX_SEARCH_PLY + 1]>,
    pv_len: [usize; MAX_SEARCH_PLY + 1],
    /// Nodes searched in the current `go`.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// The moves this search may play, with what it learned of each.
    pub(crate) root: RootMoves,
    stopped: bool,
    /// Depth of the current root iteration (bounds the extensions).
    root_depth: i32,
    /// While a null-move verification search runs (Step 6): the side that passed
    /// may not pass again before this ply. 0 when no verification runs.
    nmp_min_ply: usize,
    /// The side whose null move is being verified.
    nmp_color: Color,
    /// The NUMA node this worker's thread is pinned to (`None`: not pinned);
    /// the worker evaluates with that node's copy of the network.
    pub(crate) numa_node: Option<usize>,
    /// The copy of the pool's network this worker's node evaluates with, as
    /// the worker last found it ([`NumaNodes::network_for`](crate::numa::NumaNodes::network_for)).
    pub(crate) node_network: Option<NodeNetwork>,
}

impl Worker {
    /// A fresh worker at the start position, evaluating with `network` (shared,
    /// not copied: the threads of a pool share the pool's network, or their
    /// NUMA node's copy of it).
    pub fn new(network: Arc<Network>) -> Worker {
        let position = Position::new(Board::startpos());
        let root = Accumulator::new(&network, position.board());
        let accumulator_cache = AccumulatorCache::new(&network);
        Worker {
            position,
            histories: Box::default(),
            correction: CorrectionHistory::default(),
            network,
            accumulators: vec![root; MAX_SEARCH_PLY + 8].into_boxed_slice(),
            accumulators_len: 1,
            accumulator_cache,
            frames: vec![Frame::EMPTY; MAX_SEARCH_PLY + 4],
            pv: Box::new([[Move::NULL; MAX_SEARCH_PLY + 1]; MAX_SEARCH_PLY + 1]),
            pv_len: [0; MAX_SEARCH_PLY + 1],
            nodes: 0,
            seldepth: 0,
            root: RootMoves::default(),
            stopped: false,
            root_depth: 0,
            nmp_min_ply: 0,
            nmp_color: Color::White,
            numa_node: None,
            node_network: None,
        }
    }

    /// Forgets learned move ordering and its own corrections (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.histories.clear();
        self.correction.clear();
    }

    /// Prepares a new search from `position` that may play the moves of `root`,
    /// evaluating with `network`.
    pub(crate) fn prepare(&mut self, position: &Position, root: RootMoves, network: Arc<Network>) {
        self.position = position.clone();
        self.network = network;
        self.accumulators[0] = Accumulator::new(&self.network, position.board());
        self.accumulators_len = 1;
        self.accumulator_cache.reset(&self.network);
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.nmp_min_ply = 0;
        self.root = root;
        for k in self.histories.killers.iter_mut() {
            *k = [Move::NULL; 2];
        }
        self.histories.clear_low_ply();
    }

    /// The share of this thread's nodes spent below root move `mv` in this `go`.
    pub fn node_share(&self, mv: Move) -> f64 {
        self.root.node_share(mv, self.nodes)
    }

    /// How far this search has got, for its reports.
    pub(crate) fn progress(&self) -> Progress {
        Progress { seldepth: self.seldepth, nodes: self.nodes }
    }

    /// How far this search had got when the root move `first` last raised
    /// alpha: the progress reported with its line (a line's own selective depth,
    /// as Stockfish reports it).
    pub(crate) fn line_progress(&self, first: Option<Move>) -> Progress {
        let seldepth = first.and_then(|mv| self.root.get(mv)).map_or(self.seldepth, |m| m.seldepth);
        Progress { seldepth, nodes: self.nodes }
    }

    /// The principal variation of the last root search.
    pub fn root_pv(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// The report of the root line `pv`: with the tables' verdict on its first move.
    pub(crate) fn root_line(&self, pv: Vec<Move>) -> RootLine {
        let tb = pv.first().and_then(|&mv| self.root.get(mv)).and_then(|m| m.tb);
        RootLine { pv, tb }
    }

    /// Whether the last search was interrupted by the stop flag.
    pub fn was_stopped(&self) -> bool {
        self.stopped
    }

    #[inline(always)]
    fn board(&self) -> &Board {
        self.position.board()
    }

    /// Plays `mv`, legal in the current position. Every move the search makes
    /// goes through here and [`Worker::unmake_move`] (and a null move through
    /// [`Worker::make_null`] and [`Worker::unmake_null`]): the one place to
    /// update anything incremental that follows the position, such as an
    /// evaluation accumulator.
    ///
    /// The child's table bucket is prefetched first, so that the memory load
    /// overlaps the accumulator update instead of stalling the child's probe.
    #[inline(always)]
    fn make_move(&mut self, mv: Move, tt: &TranspositionTable) {
        self.position.push(mv);
        tt.prefetch(self.position.board().key());
        let n = self.accumulators_len;
        let parent = self.position.previous_board().expect("a move was just pushed");
        let (line, free) = self.accumulators.split_at_mut(n);
        line[n - 1].play_into(&self.network, parent, mv, &mut free[0], &mut self.accumulator_cache);
        self.accumulators_len = n + 1;
    }

    /// Passes the move to the opponent (null move pruning); the accumulator
    /// stays the parent's.
    #[inline(always)]
    fn make_null(&mut self, tt: &TranspositionTable) {
        self.position.push_null();
        tt.prefetch(self.position.board().key());
    }

    /// Takes back the last [`Worker::make_move`].
    #[inline(always)]
    fn unmake_move(&mut self) {
        self.accumulators_len -= 1;
        self.position.pop();
    }

    /// Takes back the last [`Worker::make_null`].
    #[inline(always)]
    fn unmake_null(&mut self) {
        self.position.pop();
    }

    /// The static evaluation of the current position, from the side to move's
    /// point of view: the search's only call of the evaluation.
    fn evaluate(&mut self) -> i32 {
        let board = self.position.board();
        let accumulator = &self.accumulators[self.accumulators_len - 1];
        debug_assert!(
            *accumulator == Accumulator::new(&self.network, board),
            "the accumulator on top of the stack is not the position's: {}",
            board.to_fen(true)
        );
        // Clamped by the network to ±MAX_EVAL: never a tablebase or mate score.
        self.network.evaluate(accumulator, board)
    }

    /// The static evaluation of a node not in check: the one the table stored with
    /// the position (`hit`), or else a fresh [`Worker::evaluate`]. The table keeps
    /// this raw value; [`Worker::corrected`] adds what searches learned.
    #[inline(always)]
    fn static_eval(&mut self, hit: Option<&Record>) -> i32 {
        match hit {
            Some(h) => h.eval,
            None => self.evaluate(),
        }
    }

    /// The moves played one and two plies before `ply` (`PieceTo::NONE` before the root).
    #[inline(always)]
    fn prev_moves(&self, ply: usize) -> [PieceTo; 2] {
        let moved = |back: usize| {
            if ply >= back { self.frames[ply - back].moved } else { PieceTo::NONE }
        };
        [moved(1), moved(2)]
    }

    /// Where the quiet moves of the current position, `ply` plies from the
    /// root, are read and written in the histories — continuation history
    /// against the moves one and two plies before, pawn-structure history, and
    /// low-ply history within its first plies — but for the threat map of
    /// butterfly history ([`Worker::lesser_attacks`]), the one part that costs
    /// (the opponent's attacks): a node adds it when it reaches its moves
    /// (Step 8), so the nodes that the table or the whole-node pruning decide
    /// never build it.
    #[inline(always)]
    fn quiet_keys(&self, ply: usize) -> QuietKeys {
        QuietKeys {
            prev: self.prev_moves(ply),
            threats: board::Bitboard::EMPTY,
            pawn: Some(QuietKeys::pawn_slot(self.board())),
            low_ply: (ply < LOW_PLIES).then_some(ply),
        }
    }

    /// The opponent's attacks, from one pass over its pieces: all of them (the
    /// threats of butterfly history) and those of its pieces cheaper than each
    /// of ours (the threat term of quiet move ordering).
    #[inline(always)]
    fn lesser_attacks(&self) -> LesserAttacks {
        let board = self.board();
        board.attacks_by_lesser(board.side_to_move())
    }

    /// What correction history says of the static eval of the current position,
    /// `ply` plies from the root.
    #[inline(always)]
    fn correction_at(&self, ply: usize) -> i32 {
        self.correction.correction(self.board(), self.prev_moves(ply))
    }

    /// `raw` static eval of the current position plus its `correction`, damped
    /// towards 0 as the fifty-move counter grows, kept clear of decisive scores
    /// (mates, tablebase results).
    #[inline(always)]
    fn corrected(&self, raw: i32, correction: i32) -> i32 {
        let base = fifty_move_damping_base();
        let eval = (raw + correction) * (base - i32::from(self.board().halfmove_clock())) / base;
        eval.clamp(-DECISIVE_BOUND + 1, DECISIVE_BOUND - 1)
    }

    /// Decides whether to stop and, if not, counts the node about to be searched.
    #[inline(always)]
    fn visit(&mut self, ctx: &SearchContext) -> bool {
        let stop = ctx.enter_node(&mut self.nodes);
        if stop {
            self.stopped = true;
        }
        stop
    }

    /// The search's one draw test (also quiescence's): `Position::is_draw_in_search`.
    #[inline(always)]
    fn is_draw(&self) -> bool {
        self.position.is_draw_in_search()
    }

    #[inline(always)]
    fn piece_to(&self, mv: Move) -> PieceTo {
        PieceTo::of_move(self.board(), mv)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

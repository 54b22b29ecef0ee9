//! The root moves of one `go`: the moves the search may play, each with every
//! figure the search keeps of it (Stockfish's and Reckless's `RootMove` list).
//!
//! The list is built once per `go` ([`RootMoves::new`]): every legal move, or
//! those of `go searchmoves`, or, when the root is in the tablebases, the moves
//! that keep its result, each with the tables' verdict. The root search
//! (`Worker::search` of the [`Root`](crate::worker) kind) then reads and writes only
//! this list: which moves it searches, the nodes below each, the line and score
//! of each move that raises alpha, and which moves are already the first move of
//! a better MultiPV line in this iteration.

use crate::tablebase::{RootRanking, TbVerdict};
use board::{Board, Move};
use tt::INFINITY;

/// A move the search may play, with what the search of this `go` learned of it.
#[derive(Debug, Clone)]
pub(crate) struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score in the current iteration: exact, or a lower bound after a fail
    /// high, once it raised alpha; `-INFINITY` while it has not.
    pub score: i32,
    /// The score of the line it led at the end of the previous iteration (0
    /// before the first): the centre of that line's aspiration window.
    pub previous_score: i32,
    /// Nodes spent below it in this `go`.
    pub nodes: u64,
    /// Its principal variation when it last raised alpha (itself first).
    pub pv: Vec<Move>,
    /// The search's selective depth when it last raised alpha.
    pub seldepth: usize,
    /// The tablebases' verdict, when the root is in the tables.
    pub tb: Option<TbVerdict>,
    /// Already the first move of a better MultiPV line in this iteration: not
    /// searched again until the next.
    pub in_line: bool,
}

impl RootMove {
    fn new(mv: Move, tb: Option<TbVerdict>) -> RootMove {
        RootMove {
            mv,
            score: -INFINITY,
            previous_score: 0,
            nodes: 0,
            pv: Vec::new(),
            seldepth: 0,
            tb,
            in_line: false,
        }
    }
}

/// The root moves of one `go`, and where the current iteration stands among them.
#[derive(Debug, Clone, Default)]
pub(crate) struct RootMoves {
    moves: Vec<RootMove>,
    /// The latest move of the current aspiration search that was fully searched
    /// and raised alpha (or failed high): the answer if the iteration is cut short.
    raised: Option<usize>,
    /// MultiPV lines already completed in this iteration.
    lines_done: usize,
}

impl RootMoves {
    /// The moves of `board` a search may play: those the tables keep when `tb`
    /// ranks the root, else those of `search_moves` (all legal moves when it is
    /// empty or names none of them).
    pub fn new(board: &Board, search_moves: &[Move], tb: Option<&RootRanking>) -> RootMoves {
        let moves = match tb {
            Some(ranking) => ranking.verdicts().map(|(mv, v)| RootMove::new(mv, Some(v))).collect(),
            None => {
                let legal = board.legal_moves();
                let wanted: Vec<_> = legal
                    .iter()
                    .copied()
                    .filter(|m| search_moves.is_empty() || search_moves.contains(m))
                    .collect();
                let chosen = if wanted.is_empty() { legal.to_vec() } else { wanted };
                chosen.into_iter().map(|mv| RootMove::new(mv, None)).collect()
            }
        };
        RootMoves { moves, raised: None, lines_done: 0 }
    }

    /// How many moves the search may play.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there is no move to play (mate or stalemate).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves, in their current order: after an iteration its lines' moves
    /// come first, best line first for a single line.
    pub fn iter(&self) -> impl Iterator<Item = &RootMove> {
        self.moves.iter()
    }

    /// Whether the search may play `mv`.
    pub fn contains(&self, mv: Move) -> bool {
        self.index(mv).is_some()
    }

    /// The root move `mv`, if the search may play it.
    pub fn get(&self, mv: Move) -> Option<&RootMove> {
        self.index(mv).map(|i| &self.moves[i])
    }

    fn index(&self, mv: Move) -> Option<usize> {
        self.moves.iter().position(|m| m.mv == mv)
    }

    /// Where `mv` is in the list, when the current line searches it: a move the
    /// search may play that is not already a better line's.
    #[inline]
    pub fn to_search(&self, mv: Move) -> Option<usize> {
        self.index(mv).filter(|&i| !self.moves[i].in_line)
    }

    /// Whether the current search is the iteration's first line: only its
    /// result goes into the table (a later line's is a search without the best
    /// moves, not the position's).
    pub fn is_first_line(&self) -> bool {
        self.lines_done == 0
    }

    /// A new aspiration search of the current line starts.
    pub fn start_search(&mut self) {
        self.raised = None;
    }

    /// The move at `index` took `nodes` more nodes.
    #[inline]
    pub fn add_nodes(&mut self, index: usize, nodes: u64) {
        self.moves[index].nodes += nodes;
    }

    /// The move at `index` raised alpha to `score` (a lower bound if it failed
    /// high) with the principal variation `pv`, having reached `seldepth`.
    pub fn raised_alpha(&mut self, index: usize, score: i32, pv: &[Move], seldepth: usize) {
        let m = &mut self.moves[index];
        m.score = score;
        m.pv.clear();
        m.pv.extend_from_slice(pv);
        m.seldepth = seldepth;
        self.raised = Some(index);
    }

    /// The move that last raised alpha in the current aspiration search, if any.
    pub fn raised(&self) -> Option<&RootMove> {
        self.raised.map(|i| &self.moves[i])
    }

    /// The share of `total` nodes spent below `mv`.
    pub fn node_share(&self, mv: Move, total: u64) -> f64 {
        self.get(mv).map_or(0.0, |m| m.nodes as f64 / total.max(1) as f64)
    }

    /// A new iteration starts: no move is a line yet.
    pub fn start_iteration(&mut self) {
        self.lines_done = 0;
        for m in &mut self.moves {
            m.in_line = false;
            m.score = -INFINITY;
        }
    }

    /// The previous score of the iteration's next line, the `line`th (from 0).
    pub fn previous_score(&self, line: usize) -> i32 {
        self.moves.get(line).map_or(0, |m| m.previous_score)
    }

    /// The current line was completed with `score` and first move `first`
    /// (`None`: the line has no move): that move is not searched again in this
    /// iteration, and leads this line in the next one's order.
    pub fn line_done(&mut self, first: Option<Move>, score: i32) {
        if let Some(i) = first.and_then(|mv| self.to_search(mv)) {
            // The lines' moves stay in front, in the order they were searched.
            let front = self.moves.iter().filter(|m| m.in_line).count();
            let m = &mut self.moves[i];
            m.in_line = true;
            m.previous_score = score;
            self.moves[front..=i].rotate_right(1);
        }
        self.raised = None;
        self.lines_done += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(board: &Board, uci: &[&str]) -> Vec<Move> {
        uci.iter().map(|m| board.parse_uci_move(m, false).expect("legal move")).collect()
    }

    #[test]
    fn the_list_is_the_legal_moves_or_those_asked_for() {
        let board = Board::startpos();
        assert_eq!(RootMoves::new(&board, &[], None).len(), 20);
        let asked = moves(&board, &["e2e4", "d2d4"]);
        let root = RootMoves::new(&board, &asked, None);
        assert_eq!(root.len(), 2);
        assert!(asked.iter().all(|&mv| root.contains(mv)));
        // A `searchmoves` that names no legal move is ignored.
        let mut after = board;
        after.play_unchecked(asked[0]);
        let elsewhere = moves(&after, &["e7e5"]);
        assert_eq!(RootMoves::new(&board, &elsewhere, None).len(), 20);
    }

    #[test]
    fn lines_leave_the_search_and_lead_the_next_order() {
        let board = Board::startpos();
        let mut root = RootMoves::new(&board, &[], None);
        let [a, b] = moves(&board, &["g1f3", "e2e4"])[..] else { unreachable!() };
        root.start_iteration();
        assert!(root.is_first_line());
        let i = root.to_search(a).expect("a root move");
        root.raised_alpha(i, 30, &[a], 5);
        assert_eq!(root.raised().map(|m| (m.mv, m.score)), Some((a, 30)));
        root.line_done(Some(a), 30);
        assert!(root.to_search(a).is_none(), "a line's move is searched once an iteration");
        assert!(!root.is_first_line());
        root.line_done(Some(b), 10);
        assert_eq!(root.iter().take(2).map(|m| m.mv).collect::<Vec<_>>(), [a, b]);
        assert_eq!((root.previous_score(0), root.previous_score(1)), (30, 10));
        root.start_iteration();
        assert!(root.to_search(a).is_some() && root.is_first_line());
    }

    #[test]
    fn nodes_are_counted_per_move() {
        let board = Board::startpos();
        let mut root = RootMoves::new(&board, &[], None);
        let [a] = moves(&board, &["e2e4"])[..] else { unreachable!() };
        let i = root.to_search(a).expect("a root move");
        root.add_nodes(i, 300);
        root.add_nodes(i, 100);
        assert_eq!(root.node_share(a, 1000), 0.4);
    }
}

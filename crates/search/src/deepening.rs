//! Iterative deepening: the main thread's loop — MultiPV lines, reports, the
//! time manager, the end of the search — and the helpers' silent loop. In a
//! cluster the leader's main thread also collects the other ranks' thread results for the
//! vote, and on the other ranks thread 0 runs the helpers' loop (`follower_search`).

use crate::budget::NodeBudget;
use crate::choice::{BestMoveChoice, ThreadResult, choose};
use crate::cluster::{Exchange, Remote};
use crate::control::SearchRun;
use crate::limits::SearchJob;
use crate::params::{
    MAX_ITERATION_DEPTH, cluster_wait_divisor, helper_skip_min_depth, helper_skip_period,
    time_nodes_min_depth,
};
use crate::report::{CurrentMoveReports, Reports, SearchOutcome, fail_pv};
use crate::root::RootMoves;
use crate::shared::Shared;
use crate::time::{IterationTimes, Stability, fail_low_scale, node_share_scale};
use crate::worker::{SearchContext, Share, Worker};
use board::Move;
use tt::{Bound, MATE, MATE_BOUND};

/// Thread `id`'s search context, with its node `budget`: in a cluster its
/// stores are offered to the other ranks, and thread 0 exchanges with them. The
/// main thread (`keeps_clock`) follows `ponderhit`.
fn context<'a>(
    shared: &'a Shared,
    run: &'a SearchRun,
    budget: NodeBudget<'a>,
    id: usize,
    keeps_clock: bool,
) -> SearchContext<'a> {
    let resources = &run.resources;
    let (tt, cluster) = (&*resources.tt, &*resources.cluster);
    let (budget, share) = if cluster.ranks() == 1 {
        (budget, None)
    } else {
        let budget =
            if id == 0 { budget.with_exchange(Exchange::new(cluster, tt)) } else { budget };
        (budget, Some(Share { cluster, depth: cluster.share_depth(), thread: id }))
    };
    SearchContext {
        tt,
        budget,
        clock: &run.clock,
        keeps_clock,
        signals: &shared.signals,
        tb: &resources.tablebase,
        counts: resources.counters.thread(id),
        current_move: None,
        share,
    }
}

/// The main thread: iterative deepening with MultiPV, reports and the clock;
/// then the wait for a hold (not for the helpers: see below), and the best move.
pub(crate) fn main_search(shared: &Shared, worker: &mut Worker, run: &SearchRun) {
    let job = &run.job;
    let (tt, counters, tb) =
        (&*run.resources.tt, &*run.resources.counters, &*run.resources.tablebase);
    let cluster = &*run.resources.cluster;
    cluster.begin();
    let root = *job.position.board();
    let limits = &job.limits;
    let budget = NodeBudget::new(&shared.signals, counters, limits).finishing_first_iteration();
    let mut ctx = context(shared, run, budget, 0, true);
    ctx.current_move = Some(CurrentMoveReports::new(&*shared.reporter, root, job.start));
    prepare(shared, worker, run);
    let reports = Reports {
        reporter: &*shared.reporter,
        root,
        start: job.start,
        tt,
        counters,
        multipv: job.multipv.clamp(1, worker.root.len().max(1)),
        tb,
    };
    if !worker.root.is_empty() {
        deepen(shared, worker, &ctx, &reports, job);
    }
    let interrupted = worker.was_stopped();

    // `go infinite` and `go ponder` never end on their own: wait for `stop` or
    // `ponderhit`, stop the threads, and wait out the least time to answer.
    run.clock.wait_to_answer(&shared.signals);
    ctx.budget.publish(worker.nodes);
    // The move is announced without waiting for the helpers to wind down: a helper
    // publishes only completed iterations, so waiting adds nothing to the choice, and
    // with more threads than cores (or a loaded machine) a helper may not run again
    // for tens of milliseconds. The pool is idle (and `start` may go on) only when
    // every thread is done.
    // In a cluster: stop the other ranks and gather their threads' results and final node counts.
    // On the clock the hard limit has been reached: the wait may spend half the move
    // overhead, which the time manager keeps in reserve (a late rank then counts with
    // the nodes last heard from it, and its results miss the vote).
    let patience = run.clock.on_clock().then_some(job.move_overhead / cluster_wait_divisor());
    let remote = (cluster.ranks() > 1).then(|| {
        let results = shared.results.by_thread();
        cluster.finish(&results, counters.local(), patience)
    });
    if let Some(r) = &remote {
        counters.heard_from_other_ranks(r.nodes);
    }
    announce(shared, worker, &reports, (interrupted, run.resources.choice), remote);
}

/// Sets up `worker` for `search`: the root moves it may play are those of
/// `go searchmoves`, narrowed to the moves that keep the tablebase result
/// when the root is in the tables.
fn prepare(shared: &Shared, worker: &mut Worker, run: &SearchRun) {
    let (job, tb) = (&run.job, &*run.resources.tablebase);
    let mut noted = worker.node_network.take();
    let network = shared.numa.network_for(&run.resources.network, worker.numa_node, &mut noted);
    worker.node_network = noted;
    let root = RootMoves::new(job.position.board(), &job.limits.search_moves, tb.root());
    worker.prepare(&job.position, root, network);
}

/// The main thread's iterations, until a stopping rule or the depth limit.
fn deepen(
    shared: &Shared,
    worker: &mut Worker,
    ctx: &SearchContext,
    reports: &Reports,
    job: &SearchJob,
) {
    let max_depth = job.limits.depth.unwrap_or(MAX_ITERATION_DEPTH).clamp(1, MAX_ITERATION_DEPTH);
    let mut stability = Stability::default();
    let mut iterations = IterationTimes::default();
    let mut previous_score = None;
    let mut previous_pv = Vec::new();
    for depth in 1..=max_depth {
        let on_fail = |w: &Worker, multipv, score, bound| {
            if reports.aspiration_fail_due() {
                ctx.budget.publish(w.nodes);
                let line = w.root_line(fail_pv(w.root_pv(), &previous_pv));
                reports.line(w.progress(), depth, multipv, score, bound, line);
            }
        };
        let searched = worker.search_lines(ctx, depth, reports.multipv, on_fail);
        ctx.budget.first_iteration_done();
        let Some(lines) = searched else {
            // Cut short: a root move that beat the previous best at this depth
            // (searched in full, or failing high) is better informed than the
            // last completed iteration, so it becomes the answer (reported by
            // the final `info` line, as a lower bound).
            if reports.multipv == 1
                && let Some(line) = unfinished_line(worker, depth, stability.best())
            {
                shared.results.publish(0, line);
            }
            break;
        };
        ctx.budget.publish(worker.nodes);
        for (i, line) in lines.iter().enumerate() {
            let report = worker.root_line(line.pv.clone());
            let progress = worker.line_progress(line.pv.first().copied());
            reports.line(progress, depth, i + 1, line.score, Bound::Exact, report);
        }
        let best = &lines[0];
        shared.results.publish(
            0,
            ThreadResult { depth, score: best.score, bound: Bound::Exact, pv: best.pv.clone() },
        );
        stability.update(best.pv.first().copied());
        let mut scale = stability.scale();
        if worker.root.len() == 1 {
            // One move to play (one legal move, or one the tablebases keep): nothing
            // to choose, so on the clock the first iteration's score and line are
            // enough and the time is kept for the moves that need it.
            scale = 0.0;
        }
        if depth >= time_nodes_min_depth() {
            if let Some(mv) = best.pv.first() {
                scale *= node_share_scale(worker.node_share(*mv));
            }
            if let Some(previous) = previous_score {
                scale *= fail_low_scale(previous, best.score);
            }
        }
        previous_score = Some(best.score);
        previous_pv.clone_from(&best.pv);
        iterations.completed(ctx.clock.elapsed());
        if stop_deepening(ctx, reports, job, best.score, (scale, iterations.next()), worker.nodes) {
            break;
        }
    }
}

/// After a completed iteration of the main thread, with its best `score`:
/// whether to start no other — the soft limits: a mate found within `go mate`,
/// the clock's soft limit (not while `go infinite` or `go ponder` holds;
/// stretched by `scale`, with `next` the next iteration's predicted length,
/// see [`crate::time::Stability`]), or the soft node limit (`nodes` is this
/// thread's count, which may be ahead of the published total).
fn stop_deepening(
    ctx: &SearchContext,
    reports: &Reports,
    job: &SearchJob,
    score: i32,
    (scale, next): (f64, std::time::Duration),
    nodes: u64,
) -> bool {
    let limits = &job.limits;
    let mate_found =
        limits.mate.is_some_and(|m| score >= MATE_BOUND && MATE - score <= 2 * m as i32);
    let soft_time = !ctx.signals.is_held() && ctx.clock.soft_expired(scale, next);
    let soft_nodes = limits.soft_nodes.is_some_and(|n| reports.counters.total().max(nodes) >= n);
    mate_found || soft_time || soft_nodes
}

/// After iteration `depth` was cut short: the line of the root move that beat
/// `last_best` (the move of the last completed iteration) in it, searched in full
/// or failing high, as a lower bound. `None` when no move did, or at depth 1.
fn unfinished_line(worker: &Worker, depth: i32, last_best: Option<Move>) -> Option<ThreadResult> {
    let raised = worker.root.raised()?;
    if depth <= 1 || last_best == Some(raised.mv) {
        return None;
    }
    let pv = raised.pv.clone();
    Some(ThreadResult { depth, score: raised.score, bound: Bound::Lower, pv })
}

/// Chooses the line played among the threads' results (and in a cluster, the
/// other ranks'), reports it when the last `info` line did not, and announces the
/// best move.
fn announce(
    shared: &Shared,
    worker: &Worker,
    reports: &Reports,
    (interrupted, choice): (bool, BestMoveChoice),
    remote: Option<Remote>,
) {
    let mut results = shared.results.by_thread();
    let in_cluster = remote.is_some();
    // Another rank's line votes only if its move may be played here (a rank whose
    // state differs, e.g. after a refused command, must not hand us an illegal move).
    let playable = |r: &ThreadResult| r.best().is_some_and(|mv| worker.root.contains(mv));
    results.extend(remote.into_iter().flat_map(|r| r.results).filter(playable));
    let chosen_thread = choose(&results, choice);
    let chosen = results.get(chosen_thread).cloned().unwrap_or_default();
    // The last `info` line describes the move played, with the final node count and
    // time: after an unfinished iteration (whose nodes no line has reported yet), when
    // another thread's line won the vote, or when other ranks' final counts came in,
    // one more line is due.
    if reports.multipv == 1
        && chosen.best().is_some()
        && (interrupted || chosen_thread != 0 || in_cluster)
    {
        let line = worker.root_line(chosen.pv.clone());
        reports.line(worker.progress(), chosen.depth, 1, chosen.score, chosen.bound, line);
    }
    let root = reports.root;
    let best = chosen.best().or_else(|| worker.root.iter().next().map(|m| m.mv));
    let ponder = if chosen.best().is_some() { chosen.ponder() } else { None };
    let ponder = ponder.filter(|&p| {
        best.is_some_and(|b| {
            let mut after = root;
            after.play_unchecked(b);
            after.is_legal(p)
        })
    });
    let outcome = SearchOutcome {
        root,
        best,
        ponder,
        score: chosen.score,
        depth: chosen.completed_depth(),
        nodes: reports.counters.total(),
        elapsed: reports.start.elapsed(),
    };
    shared.results.set_outcome(Some(outcome.clone()));
    shared.reporter.best_move(&outcome);
}

/// Whether helper `id`, having completed `depth`, skips `depth + 1`.
fn skips_next_depth(id: usize, depth: i32) -> bool {
    id % 2 == 1
        && depth >= helper_skip_min_depth()
        && (depth + id as i32) % helper_skip_period() == 0
}

/// A helper: iterative deepening with no output and no clock, until the stop flag.
/// Odd helpers skip a depth now and then so threads spread over neighbouring depths;
/// in a cluster the parity is that of the
/// thread's place among all ranks' threads, so ranks spread like threads do.
pub(crate) fn helper_search(shared: &Shared, worker: &mut Worker, run: &SearchRun, id: usize) {
    let job = &run.job;
    let counters = &*run.resources.counters;
    let cluster = &*run.resources.cluster;
    let lane = cluster.rank() * counters.len() + id;
    let budget = NodeBudget::new(&shared.signals, counters, &job.limits);
    let ctx = context(shared, run, budget, id, false);
    prepare(shared, worker, run);
    // Under `go depth N` a helper keeps searching past N until the main thread stops
    // (its deeper entries still help the main thread; an idle helper is a wasted core),
    // but only its iterations up to N take part in the choice of the move.
    let max_depth = job.limits.depth.unwrap_or(MAX_ITERATION_DEPTH).clamp(1, MAX_ITERATION_DEPTH);
    let mut score = 0;
    let mut depth = 1;
    while depth <= MAX_ITERATION_DEPTH && !shared.signals.is_stopped() {
        score = worker.aspiration(&ctx, depth, score, |_, _, _| {});
        if worker.was_stopped() {
            break;
        }
        if depth <= max_depth {
            let pv = worker.root_pv().to_vec();
            shared.results.publish(id, ThreadResult { depth, score, bound: Bound::Exact, pv });
        }
        depth += if skips_next_depth(lane, depth) { 2 } else { 1 };
    }
    ctx.budget.publish(worker.nodes);
}

/// Thread 0 of a rank that follows the leader of a cluster: it searches like a
/// helper (no clock, no output; the leader's stop ends the search), then sends the
/// rank's results to the leader — without waiting for the other threads to wind
/// down, as the leader does not (each has published its last completed iteration).
pub(crate) fn follower_search(shared: &Shared, worker: &mut Worker, run: &SearchRun) {
    let cluster = &run.resources.cluster;
    cluster.begin();
    helper_search(shared, worker, run, 0);
    let results = shared.results.by_thread();
    cluster.finish(&results, run.resources.counters.local(), None);
}

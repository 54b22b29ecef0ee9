//! One rank of a cluster: [`Rank`] implements [`search::Cluster`] over a
//! [`Transport`] — the leader's forwarding, the followers' command intake, the
//! table exchange, node counts, and the end of a search.

use crate::collector::{Collector, SHARE_DEPTH};
use crate::transport::{Tag, Transport};
use crate::wire::{Batch, CommandChunk, MAX_BATCH_ENTRIES, Report};
use parking_lot::Mutex;
use search::{Cluster, Remote, ThreadResult};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::{Record, TranspositionTable};

/// Time between two exchanges of table entries (measured in docs/cluster.md).
pub const DEFAULT_INTERVAL: Duration = Duration::from_millis(5);
/// The environment variable that overrides [`DEFAULT_INTERVAL`], in milliseconds
/// (for measurement: `mpirun -x TESSERA_CLUSTER_INTERVAL_MS=20 ...`).
pub const INTERVAL_VARIABLE: &str = "TESSERA_CLUSTER_INTERVAL_MS";
/// A rank sends a peer no more batches than this beyond what the peer has
/// acknowledged: a rank that stops reading (between searches, or stalled) costs
/// the others a bounded amount of MPI buffer, and entries for it are dropped.
pub const WINDOW: u64 = 4;
/// How long the leader waits for a follower's results at the end of a search.
pub const REPORT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a follower looks for the leader's next command (a sleep, not a spin).
const COMMAND_POLL: Duration = Duration::from_millis(1);
/// How often the leader looks for the followers' results while it waits for them.
const REPORT_POLL: Duration = Duration::from_micros(100);

/// Where a rank says things: the leader's `info string` lines.
pub type Say = Box<dyn Fn(&str) + Send + Sync>;

/// Bytes and entries exchanged in the current search (the figures of docs/cluster.md).
#[derive(Debug, Clone, Copy)]
struct Traffic {
    since: Instant,
    entries_out: u64,
    bytes_out: u64,
    entries_in: u64,
    bytes_in: u64,
}

impl Traffic {
    fn new(since: Instant) -> Traffic {
        Traffic { since, entries_out: 0, bytes_out: 0, entries_in: 0, bytes_in: 0 }
    }
}

/// The exchange's state, used by thread 0 of the rank only.
struct Exchange {
    /// The search under way (its `go`, counted from 1).
    running: u64,
    next_due: Instant,
    /// Batches sent to / acknowledged by / received from each rank.
    sent: Vec<u64>,
    acked: Vec<u64>,
    received: Vec<u64>,
    /// Each rank's nodes in the running search, as last heard.
    nodes: Vec<u64>,
    traffic: Traffic,
}

/// One rank of a cluster.
pub struct Rank<T: Transport> {
    transport: T,
    interval: Duration,
    collector: Collector,
    exchange: Mutex<Exchange>,
    /// The latest `go`: sent, on the leader; received, on a follower.
    announced: AtomicU64,
    quit_sent: AtomicBool,
    say: Say,
}

impl<T: Transport> Rank<T> {
    /// A rank that exchanges entries every `interval` and says things through `say`.
    pub fn new(transport: T, interval: Duration, say: Say) -> Rank<T> {
        let ranks = transport.ranks();
        let now = Instant::now();
        Rank {
            transport,
            interval,
            collector: Collector::new(),
            exchange: Mutex::new(Exchange {
                running: 0,
                next_due: now,
                sent: vec![0; ranks],
                acked: vec![0; ranks],
                received: vec![0; ranks],
                nodes: vec![0; ranks],
                traffic: Traffic::new(now),
            }),
            announced: AtomicU64::new(0),
            quit_sent: AtomicBool::new(false),
            say,
        }
    }

    fn leads(&self) -> bool {
        self.transport.rank() == 0
    }

    fn others(&self) -> impl Iterator<Item = usize> + use<T> {
        let me = self.transport.rank();
        (0..self.transport.ranks()).filter(move |&r| r != me)
    }

    fn send_line(&self, to: usize, search: u64, line: &str) {
        for message in CommandChunk::encode_line(search, line) {
            self.transport.send(to, Tag::Command, &message);
        }
    }

    /// A follower: blocks until the leader's next command and returns it. A `stop`
    /// meant for an earlier search (the leader stops each search it ends, and a new
    /// `go` may already have replaced it here) is dropped. Waiting costs no CPU: it
    /// looks every millisecond and sleeps in between.
    pub fn next_command(&self) -> String {
        let mut text = Vec::new();
        loop {
            let Some((_, bytes)) = self.transport.try_receive(Tag::Command) else {
                std::thread::sleep(COMMAND_POLL);
                continue;
            };
            let chunk = match CommandChunk::decode(&bytes) {
                Ok(chunk) => chunk,
                Err(e) => {
                    (self.say)(&format!("info string error: cluster: {e} from the leader"));
                    text.clear();
                    continue;
                }
            };
            text.extend_from_slice(&chunk.text);
            if !chunk.last {
                continue;
            }
            let line = String::from_utf8_lossy(&text).into_owned();
            text.clear();
            match line.split_whitespace().next() {
                Some("go") => self.announced.store(chunk.search, Ordering::SeqCst),
                Some("stop") if chunk.search != self.announced.load(Ordering::SeqCst) => continue,
                _ => {}
            }
            return line;
        }
    }

    /// The leader, at the end of the session: sends `quit` unless it was forwarded already.
    pub fn shutdown(&self) {
        if self.leads() && !self.quit_sent.swap(true, Ordering::SeqCst) {
            let search = self.announced.load(Ordering::SeqCst);
            for to in self.others() {
                self.send_line(to, search, "quit");
            }
        }
    }

    /// Receives the batches that have arrived (storing their entries into `tt`) and
    /// sends this rank's deepest recent stores to every rank with room in its window.
    fn exchange(&self, ex: &mut Exchange, tt: &TranspositionTable, nodes: u64) {
        while let Some((from, bytes)) = self.transport.try_receive(Tag::Batch) {
            let batch = match Batch::decode(&bytes) {
                Ok(batch) if from < ex.received.len() => batch,
                Ok(_) => continue,
                Err(e) => {
                    (self.say)(&format!("info string error: cluster: {e} from rank {from}"));
                    continue;
                }
            };
            ex.received[from] += 1;
            ex.acked[from] = ex.acked[from].max(batch.ack);
            if batch.search == ex.running {
                ex.nodes[from] = batch.nodes;
            }
            for entry in &batch.entries {
                tt.store(entry.key, &entry.record);
            }
            ex.traffic.entries_in += batch.entries.len() as u64;
            ex.traffic.bytes_in += bytes.len() as u64;
        }
        let entries = self.collector.take(MAX_BATCH_ENTRIES);
        let count = entries.len() as u64;
        let mut message = Batch { search: ex.running, nodes, ack: 0, entries }.encode();
        for to in self.others() {
            if ex.sent[to] - ex.acked[to] >= WINDOW {
                continue;
            }
            Batch::set_ack(&mut message, ex.received[to]);
            self.transport.send(to, Tag::Batch, &message);
            ex.sent[to] += 1;
            ex.traffic.entries_out += count;
            ex.traffic.bytes_out += message.len() as u64;
        }
    }

    /// The leader: waits (up to `patience`) for every follower's report of `search`.
    fn collect_reports(&self, search: u64, patience: Duration) -> Vec<Option<Report>> {
        let ranks = self.transport.ranks();
        let mut reports: Vec<Option<Report>> = vec![None; ranks];
        let deadline = Instant::now() + patience;
        let mut missing = ranks - 1;
        while missing > 0 {
            while let Some((from, bytes)) = self.transport.try_receive(Tag::Report) {
                match Report::decode(&bytes) {
                    Ok(r) if r.search == search && from > 0 && from < ranks => {
                        if reports[from].replace(r).is_none() {
                            missing -= 1;
                        }
                    }
                    Ok(_) => {} // an earlier search's, cut short by a new `go`
                    Err(e) => {
                        (self.say)(&format!("info string error: cluster: {e} from rank {from}"))
                    }
                }
            }
            if missing == 0 || Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(REPORT_POLL);
        }
        reports
    }
}

impl<T: Transport> Cluster for Rank<T> {
    fn rank(&self) -> usize {
        self.transport.rank()
    }

    fn ranks(&self) -> usize {
        self.transport.ranks()
    }

    fn forward(&self, command: &str) {
        if !self.leads() || self.transport.ranks() == 1 {
            return;
        }
        let head = command.split_whitespace().next();
        let search = if head == Some("go") {
            self.announced.fetch_add(1, Ordering::SeqCst) + 1
        } else {
            self.announced.load(Ordering::SeqCst)
        };
        if head == Some("quit") {
            self.quit_sent.store(true, Ordering::SeqCst);
        }
        for to in self.others() {
            self.send_line(to, search, command);
        }
    }

    fn share_depth(&self) -> i32 {
        SHARE_DEPTH
    }

    fn offer(&self, thread: usize, key: u64, record: &Record) {
        self.collector.offer(thread, key, record);
    }

    fn begin(&self) {
        let mut ex = self.exchange.lock();
        let now = Instant::now();
        ex.running = self.announced.load(Ordering::SeqCst);
        ex.nodes.fill(0);
        ex.next_due = now + self.interval;
        ex.traffic = Traffic::new(now);
    }

    fn poll(&self, tt: &TranspositionTable, nodes: u64) -> u64 {
        let mut ex = self.exchange.lock();
        let now = Instant::now();
        if now >= ex.next_due {
            ex.next_due = now + self.interval;
            self.exchange(&mut ex, tt, nodes);
        }
        let me = self.transport.rank();
        ex.nodes.iter().enumerate().filter(|&(r, _)| r != me).map(|(_, n)| n).sum()
    }

    fn finish(&self, results: &[ThreadResult], nodes: u64, patience: Option<Duration>) -> Remote {
        let ex = self.exchange.lock();
        if !self.leads() {
            let report = Report { search: ex.running, nodes, results: results.to_vec() };
            self.transport.send(0, Tag::Report, &report.encode());
            return Remote::default();
        }
        for to in self.others() {
            self.send_line(to, ex.running, "stop");
        }
        let reports = self.collect_reports(ex.running, patience.unwrap_or(REPORT_TIMEOUT));
        let missing: Vec<String> =
            (1..reports.len()).filter(|&r| reports[r].is_none()).map(|r| r.to_string()).collect();
        // Without a clock a missing report is a fault; on the clock, a rank that did not
        // answer within the reserve (a busy machine) is noted in the summary.
        if !missing.is_empty() && patience.is_none() {
            (self.say)(&format!(
                "info string error: cluster: no results from rank {} within {} s; the move is chosen without them",
                missing.join(", "),
                REPORT_TIMEOUT.as_secs()
            ));
        }
        // A follower that did not report counts with the nodes last heard from it.
        let per_rank: Vec<u64> = (0..reports.len())
            .map(|r| match (r, &reports[r]) {
                (0, _) => nodes,
                (_, Some(report)) => report.nodes,
                (_, None) => ex.nodes[r],
            })
            .collect();
        let mut text = summary(&per_rank, &ex.traffic);
        if !missing.is_empty() && patience.is_some() {
            let _ = write!(
                text,
                "; rank {} late: nodes as last heard, results not in the vote",
                missing.join(", ")
            );
        }
        (self.say)(&text);
        Remote {
            results: reports.into_iter().flatten().flat_map(|r| r.results).collect(),
            nodes: per_rank[1..].iter().sum(),
        }
    }
}

/// The leader's `info string` after each search: every rank's nodes, and the
/// table entries this rank exchanged.
fn summary(per_rank: &[u64], traffic: &Traffic) -> String {
    let total: u64 = per_rank.iter().sum();
    let ranks: Vec<String> = per_rank.iter().map(u64::to_string).collect();
    let secs = traffic.since.elapsed().as_secs_f64().max(1e-3);
    format!(
        "info string cluster nodes {total} = {} (ranks 0..{}); rank 0 sent {} entries ({} bytes, {:.0} bytes/s), received {} entries ({} bytes, {:.0} bytes/s)",
        ranks.join(" + "),
        per_rank.len() - 1,
        traffic.entries_out,
        traffic.bytes_out,
        traffic.bytes_out as f64 / secs,
        traffic.entries_in,
        traffic.bytes_in,
        traffic.bytes_in as f64 / secs,
    )
}

/// The `info string` that names the ranks and their hosts (consecutive ranks on one
/// host are named together).
pub fn describe(hosts: &[String]) -> String {
    let mut groups: Vec<(usize, usize, &str)> = Vec::new();
    for (rank, host) in hosts.iter().enumerate() {
        match groups.last_mut() {
            Some((_, last, h)) if *h == host.as_str() => *last = rank,
            _ => groups.push((rank, rank, host)),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|&(first, last, host)| {
            if first == last {
                format!("rank {first} on {host}")
            } else {
                format!("ranks {first}-{last} on {host}")
            }
        })
        .collect();
    format!(
        "info string cluster of {} ranks: {}; rank 0 speaks UCI, Threads and Hash apply to each rank",
        hosts.len(),
        parts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::Loopback;
    use std::sync::Arc;
    use tt::Bound;

    fn connected(ranks: usize) -> Vec<Arc<Rank<Loopback>>> {
        Loopback::connected(ranks)
            .into_iter()
            .map(|t| Arc::new(Rank::new(t, Duration::ZERO, Box::new(|_| {}))))
            .collect()
    }

    fn record(depth: i32) -> Record {
        Record { mv: 77, score: 12, eval: 3, depth, bound: Bound::Exact, pv: false }
    }

    #[test]
    fn the_ranks_are_named_with_their_hosts() {
        let hosts: Vec<String> = ["a", "a", "b", "a"].iter().map(|s| s.to_string()).collect();
        let text = describe(&hosts);
        assert!(
            text.contains("cluster of 4 ranks: ranks 0-1 on a, rank 2 on b, rank 3 on a"),
            "{text}"
        );
    }

    #[test]
    fn a_follower_gets_the_leaders_commands_in_order_and_drops_stale_stops() {
        let n = connected(2);
        let (leader, follower) = (&n[0], &n[1]);
        leader.forward("position startpos");
        leader.forward("go depth 5");
        leader.forward("stop");
        assert_eq!(follower.next_command(), "position startpos");
        assert_eq!(follower.next_command(), "go depth 5");
        assert_eq!(follower.next_command(), "stop");
        // The leader ends search 1 (sending a stop for it) after `go` 2 was forwarded:
        // the follower is on search 2 by then, so that stop must not end it.
        leader.begin();
        leader.forward("go infinite");
        let long = format!("position startpos moves {}", "g1f3 f6g8 f3g1 g8f6 ".repeat(300));
        leader.forward(&long);
        leader.forward("stop");
        follower.send_line(0, 1, "ignored"); // a stray command to the leader is never read
        for to in leader.others() {
            leader.send_line(to, 1, "stop");
        }
        leader.forward("quit");
        assert_eq!(follower.next_command(), "go infinite");
        assert_eq!(follower.next_command(), long, "a line longer than one message");
        assert_eq!(follower.next_command(), "stop");
        assert_eq!(follower.next_command(), "quit", "the stale stop was passed on");
        leader.shutdown();
        assert!(follower.transport.try_receive(Tag::Command).is_none(), "quit sent twice");
    }

    #[test]
    fn entries_and_node_counts_reach_the_other_ranks_table() {
        let n = connected(3);
        let tables: Vec<TranspositionTable> = (0..3).map(|_| TranspositionTable::new(1)).collect();
        for (i, rank) in n.iter().enumerate() {
            rank.offer(0, 1000 + i as u64, &record(10 + i as i32));
            rank.offer(3, 2000 + i as u64, &record(6));
        }
        // Two rounds of polls: by the second, every rank has heard from every other.
        let searched = |r: usize| 100 * (r as u64 + 1);
        for _ in 0..2 {
            for (i, rank) in n.iter().enumerate() {
                rank.poll(&tables[i], searched(i));
            }
        }
        for (i, rank) in n.iter().enumerate() {
            let others: u64 = (0..3).filter(|&r| r != i).map(searched).sum();
            assert_eq!(rank.poll(&tables[i], searched(i)), others, "rank {i}");
        }
        for (i, table) in tables.iter().enumerate() {
            for r in (0..3).filter(|&r| r != i) {
                let hit = table.probe(1000 + r as u64).expect("the other rank's entry");
                assert_eq!(hit.depth, 10 + r as i32);
                assert!(table.probe(2000 + r as u64).is_some());
            }
            assert!(table.probe(1000 + i as u64).is_none(), "a rank stores its own entries itself");
        }
    }

    #[test]
    fn a_rank_that_stops_reading_gets_no_more_than_a_window_of_batches() {
        let n = connected(2);
        let table = TranspositionTable::new(1);
        for _ in 0..3 * WINDOW {
            n[0].poll(&table, 1);
        }
        let mut waiting = 0;
        while n[1].transport.try_receive(Tag::Batch).is_some() {
            waiting += 1;
        }
        assert_eq!(waiting, WINDOW);
    }

    #[test]
    fn on_the_clock_the_leader_waits_no_longer_than_its_patience() {
        let n = connected(2);
        let table = TranspositionTable::new(1);
        n[0].forward("go movetime 100");
        assert_eq!(n[1].next_command(), "go movetime 100");
        n[1].begin();
        n[0].begin();
        n[1].poll(&table, 4096); // heard by the leader, but no report follows
        n[0].poll(&table, 10);
        let started = Instant::now();
        let remote = n[0].finish(&[], 10, Some(Duration::from_millis(5)));
        assert!(started.elapsed() < Duration::from_secs(1), "waited {:?}", started.elapsed());
        assert_eq!(remote.nodes, 4096, "a late rank counts with the nodes last heard");
        assert!(remote.results.is_empty());
    }

    #[test]
    fn the_leader_collects_every_followers_results_and_nodes() {
        let n = connected(3);
        let board = board::Board::startpos();
        let e4 = board.parse_uci_move("e2e4", false).expect("legal");
        let line = ThreadResult { depth: 9, score: 20, bound: Bound::Exact, pv: vec![e4] };
        n[0].forward("go depth 9");
        for rank in &n[1..] {
            assert_eq!(rank.next_command(), "go depth 9");
            rank.begin();
        }
        n[0].begin();
        // A report of an earlier search arrives first and must be ignored.
        n[1].transport.send(
            0,
            Tag::Report,
            &Report { search: 0, nodes: 5, results: vec![] }.encode(),
        );
        n[1].finish(std::slice::from_ref(&line), 1000, None);
        n[2].finish(&[line.clone(), line.clone()], 2000, None);
        let remote = n[0].finish(&[], 300, None);
        assert_eq!(remote.nodes, 3000);
        assert_eq!(remote.results.len(), 3);
        for rank in &n[1..] {
            assert_eq!(rank.next_command(), "stop", "the leader stops the search it ends");
        }
    }
}

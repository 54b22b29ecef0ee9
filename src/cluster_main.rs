//! The UCI engine of the cluster build (feature `cluster`, docs/cluster.md).
//!
//! Started by an MPI launcher (`mpirun -np N --hostfile hosts --bind-to none tessera`), rank 0
//! runs the UCI loop on stdin and leads; every other rank runs the same loop on
//! the leader's commands, printing only errors, to stderr. Started on its own,
//! or as a single rank, this is the normal engine.

use search::Cluster;
use std::io::{BufReader, Write};
use tessera::uci;
use tessera::uci::output::Output;

/// Runs the engine until `quit` or the end of input, on every rank.
pub fn run() {
    let out = Output::new(std::io::stdout());
    if !cluster::mpi::launched() {
        uci::run(std::io::stdin().lock(), out);
        return;
    }
    let leader_out = out.clone();
    let started = cluster::mpi::start(move |rank| -> cluster::Say {
        if rank == 0 {
            Box::new(move |line| leader_out.line(line))
        } else {
            let errors = Output::new(Prefixed::new(rank));
            Box::new(move |line| errors.line(line))
        }
    });
    let (session, rank) = match started {
        Ok(started) => started,
        Err(e) => {
            out.line(&format!("info string error: cluster: {e}; this process searches alone"));
            uci::run(std::io::stdin().lock(), out);
            return;
        }
    };
    if rank.ranks() == 1 {
        uci::run(std::io::stdin().lock(), out);
    } else if rank.rank() == 0 {
        if let Some((allowed, online)) = cluster::bound_cpus() {
            out.line(&format!(
                "info string warning: cluster: rank 0 may run on {allowed} of this machine's {online} CPUs \
                 (mpirun binds each rank to a core by default): start with --bind-to none so that \
                 every rank's threads can use its machine"
            ));
        }
        uci::run_in_cluster(std::io::stdin().lock(), out, rank.clone());
        rank.shutdown();
    } else {
        let commands = BufReader::new(cluster::LeaderInput::new(rank.clone()));
        uci::run_in_cluster(commands, Output::new(Prefixed::new(rank.rank())), rank.clone());
    }
    // Every pool has stopped: MPI may be finalised.
    drop(rank);
    drop(session);
}

/// A follower's output: stderr, each line marked with the rank (mpirun passes every
/// rank's stdout to the GUI, so a follower must not write there).
struct Prefixed {
    prefix: String,
    at_line_start: bool,
}

impl Prefixed {
    fn new(rank: usize) -> Prefixed {
        Prefixed { prefix: format!("rank {rank}: "), at_line_start: true }
    }
}

impl Write for Prefixed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut text = Vec::with_capacity(buf.len() + self.prefix.len());
        for &byte in buf {
            if self.at_line_start {
                text.extend_from_slice(self.prefix.as_bytes());
            }
            text.push(byte);
            self.at_line_start = byte == b'\n';
        }
        std::io::stderr().write_all(&text)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

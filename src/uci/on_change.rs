//! What a changed option does at once: one action each, named beside the
//! option's declaration in `options.rs`. An action that cannot do what the new
//! value asks (the system refuses the memory, a file is not a network) says so
//! in one error line and sets the value back to what the engine still has.

use super::options::{Actions, Settings};
use super::{Engine, load_network, memory_budget, tablebases};
use crate::rng::Rng;
use std::sync::Arc;

impl Actions for Engine {
    /// `StrengthSeed`: the random choices of `UCI_LimitStrength` start again from it.
    fn on_strength_seed(&mut self, new: &mut Settings, _old: &Settings) {
        self.rng = Rng::from_seed_or_clock(new.strength_seed);
    }

    /// `Hash`: a table of the new size (the search under way ends first).
    /// Where memory has a fixed limit (the WebAssembly build), a table that
    /// does not fit beside the threads is capped to what does.
    fn on_hash(&mut self, new: &mut Settings, old: &Settings) {
        if let Some(limit) = memory_budget::limit_mb() {
            let room = memory_budget::hash_room(limit, new.threads);
            if new.hash_mb > room {
                let why = memory_budget::why(limit, new.threads, room);
                self.out.line(&format!(
                    "info string Hash {} MB capped to {room} MB: {why}",
                    new.hash_mb
                ));
                new.hash_mb = room;
            }
        }
        match self.pool.resize_hash(new.hash_mb) {
            Ok(()) => self.announce_hash(),
            Err(e) => {
                // The old table was freed first and allocated again, empty.
                let (_, mb) = self.pool.hash_info();
                let stays = if mb == old.hash_mb { "stays at" } else { "is now" };
                self.error(&format!("setoption: {e}; the table {stays} {mb} MB"));
                new.hash_mb = mb;
            }
        }
    }

    /// `Threads`: the new threads start before the old ones retire.
    /// Where memory has a fixed limit (the WebAssembly build), as many threads
    /// as fit beside the table.
    fn on_threads(&mut self, new: &mut Settings, old: &Settings) {
        if let Some(limit) = memory_budget::limit_mb() {
            let (_, hash_mb) = self.pool.hash_info();
            let room = memory_budget::thread_room(limit, hash_mb);
            if new.threads > room {
                let why = memory_budget::why(limit, room, hash_mb);
                self.out
                    .line(&format!("info string Threads {} capped to {room}: {why}", new.threads));
                new.threads = room;
            }
        }
        if let Err(e) = self.pool.set_threads(new.threads) {
            let n = old.threads;
            self.error(&format!(
                "setoption: {e}; keeping {n} thread{}",
                if n == 1 { "" } else { "s" }
            ));
            new.threads = old.threads;
        }
    }

    /// `NumaPolicy`: the threads are pinned anew, and say where.
    fn on_numa_policy(&mut self, new: &mut Settings, old: &Settings) {
        match self.pool.set_numa_policy(new.numa_policy.clone()) {
            Ok(()) => self.announce_pinning(),
            Err(e) => {
                self.error(&format!("setoption: {e}; NumaPolicy stays {}", old.numa_policy));
                new.numa_policy = old.numa_policy.clone();
            }
        }
    }

    /// `Clear Hash`: the table and the histories are cleared.
    fn on_clear_hash(&mut self, _new: &mut Settings, _old: &Settings) {
        self.pool.clear();
    }

    /// `SMPBestMove`: how the threads' moves are chosen from the next search on.
    fn on_smp_best_move(&mut self, new: &mut Settings, _old: &Settings) {
        self.pool.set_best_move_choice(new.smp_best_move);
    }

    /// `EvalFile`: the network is read (with bounds) and replaces the old one.
    fn on_eval_file(&mut self, new: &mut Settings, old: &Settings) {
        match load_network(&new.eval_file) {
            Ok(net) => {
                self.network = net;
                self.pool.set_network(Arc::clone(&self.network));
                self.out.line(&format!("info string evaluation network {}", new.eval_file));
            }
            Err(e) => {
                self.error(&format!("setoption: {e}; the network stays {}", old.eval_file));
                new.eval_file = old.eval_file.clone();
            }
        }
    }

    /// `SyzygyPath`: the tables of the new folders are checked and loaded.
    fn on_syzygy_path(&mut self, new: &mut Settings, old: &Settings) {
        if !tablebases::load(&self.pool, &self.out, &new.syzygy_path, &old.syzygy_path) {
            new.syzygy_path = old.syzygy_path.clone();
        }
    }

    /// `SyzygyProbeDepth`, `SyzygyProbeLimit`, `Syzygy50MoveRule`: the probing rules.
    fn on_tablebase_options(&mut self, new: &mut Settings, old: &Settings) {
        if tablebases::options(new) != tablebases::options(old) {
            self.pool.set_tablebase_options(tablebases::options(new));
        }
    }
}

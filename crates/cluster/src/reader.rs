//! A follower's input: the leader's commands as a byte stream of lines, so a
//! follower runs the very same UCI loop as the leader (`BufReader::new(LeaderInput::new(rank))`).

use crate::rank::Rank;
use crate::transport::Transport;
use std::io::Read;
use std::sync::Arc;

/// The leader's commands, one line after another; the stream never ends by
/// itself (a follower's loop ends on the `quit` it receives).
pub struct LeaderInput<T: Transport> {
    rank: Arc<Rank<T>>,
    pending: Vec<u8>,
    at: usize,
}

impl<T: Transport> LeaderInput<T> {
    /// The commands `rank` receives.
    pub fn new(rank: Arc<Rank<T>>) -> LeaderInput<T> {
        LeaderInput { rank, pending: Vec::new(), at: 0 }
    }
}

impl<T: Transport> Read for LeaderInput<T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            self.pending = self.rank.next_command().into_bytes();
            self.pending.push(b'\n');
            self.at = 0;
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::Loopback;
    use search::Cluster;
    use std::io::{BufRead, BufReader};
    use std::time::Duration;

    #[test]
    fn the_commands_read_as_lines() {
        let mut t = Loopback::connected(2).into_iter();
        let (Some(a), Some(b)) = (t.next(), t.next()) else { panic!("two transports") };
        let leader = Rank::new(a, Duration::ZERO, Box::new(|_| {}));
        let follower = Arc::new(Rank::new(b, Duration::ZERO, Box::new(|_| {})));
        leader.forward("ucinewgame");
        leader.forward("setoption name Hash value 32");
        leader.forward("quit");
        let lines: Vec<String> = BufReader::new(LeaderInput::new(follower))
            .lines()
            .map_while(Result::ok)
            .take_while(|l| l != "quit")
            .collect();
        assert_eq!(lines, ["ucinewgame", "setoption name Hash value 32"]);
    }
}

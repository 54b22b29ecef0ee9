//! The win/draw/loss verdict of a probe, with the fifty-move rule's two
//! shades (a cursed win, a blessed loss).

use pyrrhic_rs::WdlProbeResult;

/// A win/draw/loss verdict for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but the fifty-move rule saves the game (a draw).
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but the fifty-move rule spoils it (a draw).
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// `-2` (loss) to `2` (win), the convention of Syzygy tools.
    pub fn signed(self) -> i32 {
        self as i32 - 2
    }

    /// The verdict for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The prober's verdict as ours.
    pub(crate) fn from_prober(r: WdlProbeResult) -> Wdl {
        match r {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }

    /// Cursed wins as wins and blessed losses as losses (no fifty-move rule).
    pub(crate) fn ignoring_rule50(self) -> Wdl {
        match self {
            Wdl::BlessedLoss => Wdl::Loss,
            Wdl::CursedWin => Wdl::Win,
            other => other,
        }
    }
}

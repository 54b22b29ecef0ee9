//! What the evaluation records about itself: nothing for the engine, every
//! feature's coefficient for the tuner.

/// Receives `coefficient` occurrences of weight `index` (positive for White,
/// negative for Black).
pub trait Trace {
    /// Whether this trace records anything (lets the engine use its caches).
    const ACTIVE: bool;
    /// Records a feature.
    fn add(&mut self, index: usize, coefficient: i32);
}

/// The engine's trace: records nothing and compiles away.
pub struct NoTrace;

impl Trace for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
}

/// The tuner's trace: the net (White minus Black) coefficient of every weight.
#[derive(Debug, Clone, Default)]
pub struct Coefficients {
    /// `(index, coefficient)` pairs with a non-zero coefficient, in index order.
    pub terms: Vec<(u16, i16)>,
    dense: Vec<i32>,
}

impl Coefficients {
    /// An empty trace.
    pub fn new() -> Coefficients {
        Coefficients { terms: Vec::new(), dense: vec![0; crate::layout::NUM_WEIGHTS] }
    }

    /// Turns the recorded coefficients into the sparse `terms` list.
    pub fn finish(&mut self) {
        self.terms = self
            .dense
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
            .collect();
    }
}

impl Trace for Coefficients {
    const ACTIVE: bool = true;
    #[inline]
    fn add(&mut self, index: usize, coefficient: i32) {
        self.dense[index] += coefficient;
    }
}

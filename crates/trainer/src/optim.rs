//! AdamW (Adam with decoupled weight decay), with every weight clipped after
//! each step so that the quantised net cannot overflow.

use crate::net::Layout;
use eval::nnue::layout::WEIGHT_CLIP;

/// Optimiser state and settings.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    step: u32,
    /// First-moment decay.
    pub beta1: f32,
    /// Second-moment decay.
    pub beta2: f32,
    /// Decoupled weight decay (per unit of learning rate).
    pub weight_decay: f32,
    /// The decay of the first layer's own weights when the factoriser is on
    /// (with king buckets, the bucket-specific part of each weight; the
    /// shared factor keeps [`AdamW::weight_decay`]). Equal to it by default.
    pub bucket_weight_decay: f32,
}

impl AdamW {
    /// An optimiser for `len` parameters.
    pub fn new(len: usize, weight_decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
            beta1: 0.9,
            beta2: 0.999,
            weight_decay,
            bucket_weight_decay: weight_decay,
        }
    }

    /// The steps taken so far.
    pub fn steps(&self) -> u32 {
        self.step
    }

    /// The first and second moments, one of each per parameter.
    pub fn moments(&self) -> (&[f32], &[f32]) {
        (&self.m, &self.v)
    }

    /// Sets the state to `m` and `v` after `steps` steps (as [`AdamW::moments`]
    /// and [`AdamW::steps`] read it); refused when the two lengths differ.
    pub fn restore(&mut self, m: Vec<f32>, v: Vec<f32>, steps: u32) -> Result<(), String> {
        if m.len() != v.len() {
            return Err(format!("moments of {} and {} parameters", m.len(), v.len()));
        }
        (self.m, self.v, self.step) = (m, v, steps);
        Ok(())
    }

    /// One step with learning rate `lr` along `grad`; biases are not decayed,
    /// a factorised net's first-layer weights by [`AdamW::bucket_weight_decay`].
    pub fn step(&mut self, layout: Layout, params: &mut [f32], grad: &[f32], lr: f32) {
        self.step += 1;
        let correction1 = 1.0 - self.beta1.powi(self.step as i32);
        let correction2 = 1.0 - self.beta2.powi(self.step as i32);
        let (b1, b2) = (self.beta1, self.beta2);
        let biases = layout.b1();
        let own = if layout.factorised { layout.w1() } else { 0..0 };
        for (i, ((p, &g), (m, v))) in
            params.iter_mut().zip(grad).zip(self.m.iter_mut().zip(self.v.iter_mut())).enumerate()
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let m_hat = *m / correction1;
            let v_hat = *v / correction2;
            let decay = if biases.contains(&i) || layout.b2().contains(&i) {
                0.0
            } else if own.contains(&i) {
                self.bucket_weight_decay
            } else {
                self.weight_decay
            };
            *p -= lr * (m_hat / (v_hat.sqrt() + 1e-8) + decay * *p);
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
        crate::net::clip_effective(layout, params, WEIGHT_CLIP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_descend_and_clip() {
        let layout = Layout { hidden: 1, factorised: false, output_buckets: 1 };
        let mut params = vec![0.5; layout.len()];
        let mut adam = AdamW::new(layout.len(), 0.0);
        // The gradient of Σ p²/2 is p: every parameter moves towards 0.
        for _ in 0..100 {
            let grad = params.clone();
            adam.step(layout, &mut params, &grad, 0.01);
        }
        assert!(params.iter().all(|&p| p.abs() < 0.5), "{params:?}");
        // A gradient pushing outwards stops at the clip.
        let grad = vec![-1000.0; layout.len()];
        for _ in 0..2000 {
            adam.step(layout, &mut params, &grad, 0.01);
        }
        assert!(params.iter().all(|&p| p == WEIGHT_CLIP), "{params:?}");
    }

    #[test]
    fn the_bucket_decay_shrinks_only_the_factorised_own_weights() {
        // No gradient, decay on the first layer's own weights alone: they
        // shrink, the shared factor and the output weights stay.
        let layout = Layout { hidden: 2, factorised: true, output_buckets: 1 };
        let mut params = vec![0.5; layout.len()];
        let mut adam = AdamW::new(layout.len(), 0.0);
        adam.bucket_weight_decay = 0.5;
        let grad = vec![0.0; layout.len()];
        for _ in 0..10 {
            adam.step(layout, &mut params, &grad, 0.1);
        }
        assert!(params[layout.w1()].iter().all(|&p| p < 0.5), "w1 kept its size");
        assert!(params[layout.wf()].iter().all(|&p| p == 0.5), "the factor decayed");
        assert!(params[layout.w2()].iter().all(|&p| p == 0.5), "the output decayed");
    }
}

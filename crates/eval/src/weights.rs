//! The weights the engine evaluates with. The Texel tuner (`tessera tune`)
//! rewrites this file; until it has, it holds the hand-set starting weights.

use crate::S;
use crate::layout::NUM_WEIGHTS;

/// The evaluation weights in use.
pub static WEIGHTS: [S; NUM_WEIGHTS] = crate::initial::initial_weights();

//! The connections and devices a page load is simulated on, as Lighthouse defines them.
//!
//! Sitelens measures one unthrottled load and simulates it on these settings (the analyzer's
//! `simulation` module), so that the performance figures it reports are comparable with
//! Lighthouse's and PageSpeed Insights' (their "simulated throttling"). The figures are
//! Lighthouse's published presets: "Slow 4G" with a mid-tier phone for mobile, a dense 4G
//! connection on an unthrottled processor for desktop
//! (<https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md>).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::score::FormFactor;

/// A simulated connection and processor.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Throttling {
    /// Round-trip time of the connection, in milliseconds.
    pub rtt_ms: f64,
    /// Download throughput, in kilobits (1024 bits) per second.
    pub download_kbps: f64,
    /// Upload throughput, in kilobits (1024 bits) per second.
    pub upload_kbps: f64,
    /// How many times slower the simulated processor is than the measuring machine.
    pub cpu_slowdown: f64,
}

impl Throttling {
    /// Download throughput in bits per second.
    pub fn download_bits_per_second(&self) -> f64 {
        self.download_kbps * 1024.0
    }
}

/// Lighthouse's mobile preset ("Slow 4G", a mid-tier phone): 150 ms round trips, 1.6 Mbps
/// down, 750 kbps up and a processor 4 times slower.
pub const MOBILE_SLOW_4G: Throttling = Throttling {
    rtt_ms: 150.0,
    download_kbps: 1.6 * 1024.0,
    upload_kbps: 750.0,
    cpu_slowdown: 4.0,
};

/// Lighthouse's desktop preset (dense 4G): 40 ms round trips, 10 Mbps and the measuring
/// machine's own processor.
pub const DESKTOP_DENSE_4G: Throttling = Throttling {
    rtt_ms: 40.0,
    download_kbps: 10.0 * 1024.0,
    upload_kbps: 10.0 * 1024.0,
    cpu_slowdown: 1.0,
};

/// A screen a page is loaded on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Screen {
    /// Viewport width, CSS pixels.
    pub width: u32,
    /// Viewport height, CSS pixels.
    pub height: u32,
    /// Device pixels per CSS pixel.
    pub device_scale_factor: f64,
}

/// The phone Lighthouse's mobile test emulates (a moto g power, 2022): the mobile load is
/// measured on it, so that image choices (`srcset`), layout and main-thread work match what
/// Lighthouse simulates. The report's mobile screenshot keeps its own size
/// (docs/PRODUCT.md §9.10).
pub const MOBILE_SCREEN: Screen = Screen {
    width: 412,
    height: 823,
    device_scale_factor: 1.75,
};

/// The preset a form factor is scored on.
pub fn preset(form: FormFactor) -> Throttling {
    match form {
        FormFactor::Mobile => MOBILE_SLOW_4G,
        FormFactor::Desktop => DESKTOP_DENSE_4G,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_lighthouses() {
        let m = preset(FormFactor::Mobile);
        assert_eq!(m.rtt_ms, 150.0);
        assert_eq!(m.download_bits_per_second(), 1_677_721.6);
        assert_eq!(m.cpu_slowdown, 4.0);
        let d = preset(FormFactor::Desktop);
        assert_eq!(
            (d.rtt_ms, d.download_kbps, d.cpu_slowdown),
            (40.0, 10_240.0, 1.0)
        );
    }
}

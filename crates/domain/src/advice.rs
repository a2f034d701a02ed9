//! Rules over report content: action-plan order and the WordPress theme tip.

use crate::report::{ActionItem, SectionGroup};

/// Orders action items high, then medium, then low, keeping the given order within a priority
/// (docs/PRODUCT.md §9.8).
pub fn sort_action_items(items: &mut [ActionItem]) {
    items.sort_by_key(|item| item.priority);
}

/// Performance score below which the WordPress theme tip may show (docs/PRODUCT.md §9.11).
pub const WORDPRESS_TIP_BELOW: u32 = 70;

/// Whether the Technical tab shows the WordPress theme recommendation: the performance score is
/// below 70 and some technical finding's title or description mentions WordPress
/// (docs/PRODUCT.md §2.6.6).
pub fn show_wordpress_tip(performance_score: u32, technical: &[SectionGroup]) -> bool {
    performance_score < WORDPRESS_TIP_BELOW
        && technical.iter().flat_map(|g| &g.findings).any(|f| {
            f.title.to_lowercase().contains("wordpress")
                || f.description.to_lowercase().contains("wordpress")
        })
}

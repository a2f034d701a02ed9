/**
 * What the visitor did in the early shell's address form before the app took over: the live
 * form starts from the typed value and submits it if the visitor already pressed Analyze.
 */
export const earlyInput = { value: "", submitted: false };

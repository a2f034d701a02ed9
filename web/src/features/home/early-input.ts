/**
 * Whether the visitor has focused the early shell's address field. The shell's field is read-only
 * (typing waits for the app, so nothing typed can be lost in the hand-over); the live form takes
 * the focus over when the shell had it.
 */
export const earlyInput = { focused: false };

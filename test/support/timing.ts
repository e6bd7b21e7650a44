/**
 * How late a timer or an answer may come on a loaded machine, added to the timeout a test expects an
 * answer after. Without the timeout under test the answer comes only when jest's own limit ends the
 * test, so a wide margin still tells the two apart.
 */
export const LOADED_MACHINE_LATENESS_MS = 5000;

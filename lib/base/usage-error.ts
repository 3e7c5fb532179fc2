/**
 * What the user gave is wrong — a setting, a flag, a file named on the command line, a report to merge: nothing
 * can start. Its message is the one line the user sees (exit status 2), so it names what was given and why not.
 */
export class UsageError extends Error {}

export function saySignalsBeforeTheRun(): void
export function theRunTakesTheSignals(): void

export function stopWhenTheDirectoryGoes(): void
export function stopIfTheDirectoryWent(err: unknown): Promise<void>

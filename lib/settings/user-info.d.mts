export function userInfoOf(raw: string): string | undefined
export function withoutUserInfo(raw: string): string
export function textWithoutUserInfo(text: string): string

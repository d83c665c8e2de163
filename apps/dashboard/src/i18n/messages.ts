import type { en } from './en';

/** The shape of en.ts with every text a string: what each language must provide, key for key. */
type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
export type Messages = Texts<typeof en>;

export { LOCALES, type Locale } from '@oversell/contracts';

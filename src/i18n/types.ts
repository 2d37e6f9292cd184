import type { en } from './en';
import type { MessageTree } from './merge';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends string ? string : DeepPartial<T[K]> };

/**
 * What a locale file provides: any of the shell's keys (typos fail the type check) and the
 * ra.* strings of react-admin the shell shows.
 */
export type Translation = DeepPartial<typeof en> & { ra?: MessageTree };

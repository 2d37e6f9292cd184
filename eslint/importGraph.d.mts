export const ROOT: string;
export const FOLDERS: string[];
export function resolveImport(from: string, specifier: string): string | undefined;
export function importsOf(file: string, text: string): string[];
export function importGraph(root?: string): Map<string, string[]>;
export function cycles(graph: Map<string, string[]>): string[][];

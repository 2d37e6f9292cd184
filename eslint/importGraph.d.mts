export const ROOT: string;
export const FOLDERS: string[];
export function resolveImport(from: string, specifier: string): string | undefined;
export function importsOf(file: string, text: string): string[];
export function importGraph(root?: string): Map<string, string[]>;
export function cycles(graph: Map<string, string[]>): string[][];
export function featureOf(file: string, root?: string): string | undefined;
export function featureGraph(graph: Map<string, string[]>, root?: string): Map<string, string[]>;

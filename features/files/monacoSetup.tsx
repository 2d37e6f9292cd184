/**
 * Monaco from the panel's own files, never a CDN (DESIGN.md: `loader.config({ monaco })`): the
 * editor's core, its standard features and the syntax colouring of its basic languages, with
 * the one worker they need built by Vite beside the bundle. Language services (TypeScript's,
 * CSS's...) are left out: colouring is what a file manager's editor needs, at a fraction of the
 * size. Imported only by the editor's page, which is loaded lazily.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api';
import 'monaco-editor/esm/vs/editor/editor.all.js';
import 'monaco-editor/esm/vs/basic-languages/monaco.contribution.js';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
loader.config({ monaco });

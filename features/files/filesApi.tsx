/**
 * The browser's calls of the file manager (through the dataProvider, so the token, the acting
 * user and the errors are handled as everywhere), and the download, which needs the raw bytes.
 */
import type { z } from 'zod';
import { sessions } from '../../src/providers';
import { useStackdeckData } from '../../src/hooks';
import type { fileContent, fileEntry, listing } from './names';
import type { processBody } from './resource';

export type Entry = z.infer<typeof fileEntry>;
export type Listing = z.infer<typeof listing>;
export type FileContent = z.infer<typeof fileContent>;
export type ProcessBody = z.input<typeof processBody>;
export type Action = 'copy' | 'move' | 'rename' | 'compress' | 'extract' | 'permissions';

export function useFilesApi(sid: number, wsid: number) {
  const dp = useStackdeckData();
  const params = { sid };
  return {
    list: (path: string, page: number, perPage: number, signal?: AbortSignal) =>
      dp.action<Listing>('files', 'read', {
        params,
        query: { wsid, path, is_dir: 'true', page, per_page: perPage },
        signal,
      }),
    open: (path: string, signal?: AbortSignal) =>
      dp.action<FileContent>('files', 'read', {
        params,
        query: { wsid, path, is_dir: 'false' },
        signal,
      }),
    write: (body: {
      dir_path: string;
      name: string;
      is_dir?: boolean;
      file_content?: string;
      etag?: string;
    }) => dp.action<Entry & { etag?: string }>('files', 'write', { params, query: { wsid }, body }),
    remove: (path: string, trash: boolean) =>
      dp.action('files', 'remove', { params, query: { wsid, path, trash: String(trash) } }),
    process: (action: Action, body: ProcessBody) =>
      dp.action<{ done: string[] }>('files', 'process', {
        params,
        query: { wsid, action },
        body,
      }),
    dirs: () =>
      dp.action<{ dirs: string[] }>('files', 'dirs', { params: { ...params, appId: wsid } }),
  };
}

/** Downloads a file with the session's token (a plain link would carry none). */
export async function downloadFile(sid: number, wsid: number, path: string, name: string) {
  const session = sessions.get();
  if (!session) throw new Error('Sign in again to download');
  const query = new URLSearchParams({
    wsid: String(wsid),
    path,
    is_dir: 'false',
    download: 'true',
  });
  const res = await fetch(`/api/v1/fs/servers/${sid}/users/${session.userId}?${query}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `HTTP ${res.status}`);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** UTF-8 text ↔ the spec's base64 `file_content`. */
export function textToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64ToText(base64: string): string {
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export async function fileToBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

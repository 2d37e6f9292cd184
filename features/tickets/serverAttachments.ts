import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AttachmentInput } from '../../resources/tickets';

/** A decoded attachment, checked and ready to store. */
export interface IncomingFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** The first bytes each allowed type starts with; text must hold no NUL byte. */
function looksLike(type: string, bytes: Buffer): boolean {
  const starts = (magic: string | number[]) =>
    bytes.subarray(0, magic.length).equals(Buffer.from(magic as string));
  switch (type) {
    case 'image/png':
      return starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return starts([0xff, 0xd8, 0xff]);
    case 'image/gif':
      return starts('GIF87a') || starts('GIF89a');
    case 'image/webp':
      return starts('RIFF') && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
    case 'application/pdf':
      return starts('%PDF-');
    case 'text/plain':
      return !bytes.includes(0);
    default:
      return false;
  }
}

/** Decodes the attachments of a message; a file whose bytes are not its declared type is refused. */
export function decodeAttachments(files: readonly AttachmentInput[]): IncomingFile[] | string {
  const decoded: IncomingFile[] = [];
  for (const file of files) {
    const bytes = Buffer.from(file.data, 'base64');
    if (!looksLike(file.type, bytes)) return `${file.name} is not a valid ${file.type} file`;
    decoded.push({ name: file.name, type: file.type, bytes });
  }
  return decoded;
}

/** Attachments on disk: DATA_DIR/ticket-attachments/<random hex>, never the client's name. */
export class TicketFiles {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'ticket-attachments');
  }

  async save(bytes: Buffer): Promise<string> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const name = randomBytes(16).toString('hex');
    await fs.writeFile(path.join(this.dir, name), bytes, { mode: 0o600, flag: 'wx' });
    return name;
  }

  read(storedName: string): Promise<Buffer> {
    if (!/^[0-9a-f]{32}$/.test(storedName)) throw new Error('not a stored attachment name');
    return fs.readFile(path.join(this.dir, storedName));
  }

  async remove(storedNames: readonly string[]): Promise<void> {
    await Promise.all(
      storedNames.map((n) => fs.rm(path.join(this.dir, n), { force: true }).catch(() => undefined)),
    );
  }
}

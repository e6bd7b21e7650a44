import { createSocket, type Socket } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TYPE_TXT = 16;
const CLASS_IN = 1;
const FLAG_RESPONSE = 0x8000;
const FLAG_AUTHORITATIVE = 0x0400;
const RCODE_FORMERR = 1;
const RCODE_NXDOMAIN = 3;

/**
 * An authoritative DNS server on 127.0.0.1 (UDP) for ACME dns-01 tests: it answers TXT questions from files in a
 * directory, one file per name (the file name is the lower-cased name, each line one TXT value), so that a client's
 * hook script (certbot --manual-auth-hook, lego's exec provider) publishes a record by writing a line. Only the
 * parts of RFC 1035 the ACME server's resolver uses: one question, no compression in questions, TXT answers.
 * node_modules holds no DNS wire-format library, so the few fields are encoded here.
 */
export class DnsTestServer {
  private socket?: Socket;
  port = 0;

  constructor(readonly recordsDir: string) {}

  async start(): Promise<void> {
    const socket = createSocket('udp4');
    socket.on('message', (query, peer) => {
      const answer = this.answer(query);
      if (answer) socket.send(answer, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.port = socket.address().port;
    this.socket = socket;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
  }

  /** The TXT values published for `name` (empty when none). */
  records(name: string): string[] {
    const file = readdirSync(this.recordsDir).find((entry) => entry === name.toLowerCase());
    if (file === undefined) return [];
    return readFileSync(join(this.recordsDir, file), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  }

  private answer(query: Buffer): Buffer | undefined {
    if (query.length < 12) return undefined;
    const id = query.readUInt16BE(0);
    const questions = query.readUInt16BE(4);
    const labels: string[] = [];
    let offset = 12;
    while (offset < query.length && query[offset] !== 0) {
      const length = query[offset];
      if (length > 63 || offset + 1 + length > query.length) return this.header(id, RCODE_FORMERR, 0, 0);
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
      offset += 1 + length;
    }
    const questionEnd = offset + 5;
    if (questions !== 1 || questionEnd > query.length) return this.header(id, RCODE_FORMERR, 0, 0);
    const type = query.readUInt16BE(offset + 1);
    const question = query.subarray(12, questionEnd);
    const values = type === TYPE_TXT ? this.records(labels.join('.')) : [];
    if (values.length === 0) return Buffer.concat([this.header(id, RCODE_NXDOMAIN, 1, 0), question]);
    const answers = values.map((value) => {
      const text = Buffer.from(value, 'ascii');
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // a pointer to the question's name
      record.writeUInt16BE(TYPE_TXT, 2);
      record.writeUInt16BE(CLASS_IN, 4);
      record.writeUInt32BE(0, 6); // TTL 0: nothing is cached between tests
      record.writeUInt16BE(text.length + 1, 10);
      return Buffer.concat([record, Buffer.from([text.length]), text]);
    });
    return Buffer.concat([this.header(id, 0, 1, answers.length), question, ...answers]);
  }

  private header(id: number, rcode: number, questions: number, answers: number): Buffer {
    const header = Buffer.alloc(12);
    header.writeUInt16BE(id, 0);
    header.writeUInt16BE(FLAG_RESPONSE | FLAG_AUTHORITATIVE | rcode, 2);
    header.writeUInt16BE(questions, 4);
    header.writeUInt16BE(answers, 6);
    return header;
  }
}

import { createSocket, type Socket } from 'node:dgram';

/**
 * A DNS server on 127.0.0.1 (UDP, a free port) that answers TXT questions from `records`, for the
 * custom-domain verification specs: the host's resolver is pointed at it (DOMAIN_DNS_SERVERS), since
 * glibc's resolver cannot use a port other than 53. A known name answers its TXT strings (none: an
 * empty answer, "no such record"); a name it does not know answers SERVFAIL, which a host treats as
 * "no answer" and changes nothing for (other specs' domains share the database).
 */
export class TxtDns {
  /** Lower-case name (no trailing dot) → its TXT strings. */
  readonly records = new Map<string, string[]>();
  /** Names asked for, in order. */
  readonly asked: string[] = [];
  private readonly socket: Socket = createSocket('udp4');

  async start(): Promise<number> {
    this.socket.on('message', (message, remote) => {
      const answer = this.answer(message);
      if (answer) this.socket.send(answer, remote.port, remote.address);
    });
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    return this.socket.address().port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(query: Buffer): Buffer | undefined {
    if (query.length < 12) return undefined;
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at]! > 0) {
      const length = query[at]!;
      labels.push(query.subarray(at + 1, at + 1 + length).toString('latin1'));
      at += 1 + length;
    }
    const questionEnd = at + 5; // the zero byte, type and class
    if (questionEnd > query.length) return undefined;
    const type = query.readUInt16BE(at + 1);
    const name = labels.join('.').toLowerCase();
    this.asked.push(name);
    const texts = this.records.get(name);
    const answers = texts && type === 16 ? texts : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    header.writeUInt16BE(0x8180 | (texts ? 0 : 2), 2); // a response, recursion available; SERVFAIL when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const records = answers.map((text) => {
      const data = Buffer.from(text, 'utf8');
      const rdata = Buffer.concat([Buffer.from([data.length]), data]);
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the question's name
      record.writeUInt16BE(16, 2); // TXT
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(0, 6); // TTL 0: every lookup asks again
      record.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([record, rdata]);
    });
    return Buffer.concat([header, query.subarray(12, questionEnd), ...records]);
  }
}

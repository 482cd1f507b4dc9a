import dns2 from 'dns2';
import type { AddressInfo } from 'node:net';

const { Packet } = dns2;

/**
 * A DNS server on 127.0.0.1 for tests: each name answers with the next address of its list (the
 * last one repeats), with TTL 0, so a test can make a name rebind from one address to another.
 * Unknown names get an empty answer. Used with BROWSER_DNS_SERVERS / PUSH_DNS_SERVERS = `server`.
 */
export class TestDns {
  private readonly server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (question && question.type === Packet.TYPE.A) {
      const name = question.name.toLowerCase().replace(/\.$/, '');
      const list = this.answers.get(name);
      const asked = (this.asked.get(name) ?? 0) + 1;
      this.asked.set(name, asked);
      const address = list?.[Math.min(asked, list.length) - 1];
      if (address)
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.A,
          class: Packet.CLASS.IN,
          ttl: 0,
          address,
        } as unknown as (typeof response.answers)[number]);
    }
    void send(response);
  });
  private readonly answers = new Map<string, string[]>();
  /** How many A queries each name got. */
  readonly asked = new Map<string, number>();

  /** `name` answers `addresses[0]` first, then `addresses[1]`, …, the last one from then on. */
  set(name: string, ...addresses: string[]): void {
    this.answers.set(name.toLowerCase(), addresses);
    this.asked.delete(name.toLowerCase());
  }

  async start(): Promise<string> {
    await this.server.listen(0, '127.0.0.1');
    const { port } = this.server.address() as AddressInfo;
    return `127.0.0.1:${port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

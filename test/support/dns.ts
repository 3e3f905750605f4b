import { createSocket, type Socket } from 'node:dgram';
import * as packet from 'dns-packet';

/**
 * A real DNS server on loopback (UDP, answers built by `dns-packet`) holding the TXT records a test
 * sets, for the server's resolver to reach through DNS_SERVERS. Names without records answer NXDOMAIN;
 * `silent` makes it drop every question, as an unreachable server would.
 */
export class TestDns {
  /**
   * TXT records by lower-case name: each record a string, or the strings it is split in (a record
   * holds strings of up to 255 bytes; a reader joins them).
   */
  readonly txt = new Map<string, Array<string | string[]>>();
  silent = false;
  /** How many questions arrived (a cached or skipped lookup shows here). */
  questions = 0;

  private constructor(
    private readonly socket: Socket,
    readonly port: number,
  ) {}

  /** `DNS_SERVERS` for this server. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  static async start(): Promise<TestDns> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const dns = new TestDns(socket, socket.address().port);
    socket.on('message', (message, from) => dns.answer(message, from.port, from.address));
    return dns;
  }

  private answer(message: Buffer, port: number, address: string) {
    this.questions++;
    if (this.silent) return;
    const query = packet.decode(message);
    const question = query.questions?.[0];
    const values = question?.type === 'TXT' ? this.txt.get(question.name.toLowerCase()) : undefined;
    const reply = packet.encode({
      type: 'response',
      id: query.id ?? 0,
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (values ? 0 : 3), // 3: NXDOMAIN
      questions: query.questions ?? [],
      answers: (values ?? []).map((value) => ({
        type: 'TXT' as const,
        name: question!.name,
        ttl: 60,
        data: typeof value === 'string' ? [value] : value,
      })),
    });
    this.socket.send(reply, port, address);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

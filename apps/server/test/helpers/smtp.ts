import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  raw: string;
  /** Its Message-ID header (the outbox row's id in ours). */
  messageId: string | null;
  /** When it was accepted, ms since the epoch (this machine's clock, which PostgreSQL's is too). */
  at: number;
}

export interface LocalSmtp {
  port: number;
  received: Received[];
  /**
   * Messages taken in and never answered: after `hold()`, the next message's data is read and the
   * server stays silent, as a mail server that stalls mid-send. Its sender sits in the middle of the job.
   */
  held: Received[];
  hold(): void;
  close(): Promise<void>;
}

/** A local SMTP server (no TLS, no auth) that keeps every message it is given. */
export async function startSmtp(port = 0): Promise<LocalSmtp> {
  const received: Received[] = [];
  const held: Received[] = [];
  let holding = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const message = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          messageId: /^Message-ID: (<[^>]+>)/im.exec(raw)?.[1] ?? null,
          at: Date.now(),
        };
        if (holding) {
          holding = false;
          held.push(message);
          return;
        }
        received.push(message);
        callback();
      });
    },
  });
  // A sender killed mid-message drops its connection: not a failure of the server.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    received,
    held,
    hold: () => {
      holding = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A received message's text as a person reads it: quoted-printable soft breaks and escapes undone. */
export function readableText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

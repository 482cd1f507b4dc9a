import { createServer, type Server } from 'node:http';

/** The pages the benchmark tests run against, served on 127.0.0.1 by the bench itself. */
const pages: Record<string, string> = {
  '/': `<!doctype html><html><head><title>Bench Shop</title></head><body>
    <h1>Welcome</h1><p><a href="/form">Create an account</a></p></body></html>`,
  '/form': `<!doctype html><html><head><title>Sign up</title></head><body>
    <h1>Create an account</h1>
    <form action="/thanks" method="get">
      <p><label for="name">Name</label> <input id="name" name="name" autocomplete="off"></p>
      <p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="off"></p>
      <p><label for="plan">Plan</label>
        <select id="plan" name="plan"><option value="free">Free</option><option value="pro">Pro</option>
        <option value="team">Team</option></select></p>
      <p><label><input id="tos" type="checkbox" name="tos"> I accept the terms</label></p>
      <p><button id="submit" type="submit">Sign up</button></p>
    </form></body></html>`,
  '/thanks': `<!doctype html><html><head><title>Thanks</title></head><body>
    <h1>Thanks for signing up!</h1><p><a id="back" href="/form">Back to the form</a></p></body></html>`,
};

export interface Site {
  url: string;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const body = pages[path];
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Ten steps in plain English: open, type twice, select, check, click (navigates), two assertions, click back, URL. */
export const tenStepQuery = (site: string): string =>
  [
    `1. Open ${site}/form`,
    '2. Type "Jane Doe" into the Name field',
    '3. Type "jane@example.com" into the Email field',
    '4. Select "Pro" from the Plan dropdown',
    '5. Check "I accept the terms"',
    '6. Click "Sign up"',
    '7. Verify the page contains "Thanks for signing up"',
    '8. The title is "Thanks"',
    '9. Click "Back to the form"',
    '10. The URL ends with "/form"',
  ].join('\n');

/** Five steps, for the throughput benchmark. */
export const fiveStepQuery = (site: string): string =>
  [
    `1. Open ${site}/form`,
    '2. Type "Jane Doe" into the Name field',
    '3. Check "I accept the terms"',
    '4. Click "Sign up"',
    '5. Verify the page contains "Thanks for signing up"',
  ].join('\n');

/** Two steps: the first is the browser action whose start the pickup benchmark times. */
export const pickupQuery = (site: string): string => `Open ${site}/\nVerify the page contains "Welcome"`;

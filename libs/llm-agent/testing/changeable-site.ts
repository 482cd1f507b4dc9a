import type { ServerResponse } from 'node:http';
import { serveLocalSite } from '../../browser-agent/testing/local-site.js';
import { loginPage, page } from './test-pages.js';

/** What can change on the site between two runs of the same test. */
export interface SiteLook {
  /** The sign-in button's label (and id): renaming it breaks a recorded click. */
  button: string;
  /** The welcome page's heading: changing it breaks a recorded assertion. */
  welcome: string;
}

export interface ChangeableSite {
  url: string;
  look: SiteLook;
  close(): Promise<void>;
}

/**
 * A sign-in form (ada@example.com / `password`) leading to a welcome page, whose button label and
 * welcome text a test can change while it runs, to see recorded runs break and heal.
 */
export async function serveChangeableSite(password: string): Promise<ChangeableSite> {
  const look: SiteLook = { button: 'Sign in', welcome: 'Welcome back, Ada' };
  const html = (response: ServerResponse, body: string) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  };
  const site = await serveLocalSite({
    '/login': (_request, response) => html(response, loginPage(password, look.button)),
    '/welcome': (_request, response) =>
      html(response, page('Welcome', `<h1>${look.welcome}</h1><p>You have 3 new messages.</p>`)),
  });
  return { ...site, look };
}

import type { ServerResponse } from 'node:http';
import { serveLocalSite } from '../../browser-agent/testing/local-site.js';
import { page } from './test-pages.js';

/** What can change on the pets page between two runs of the same test. */
export interface PetsLook {
  /** The cat's button label: renaming it breaks a stored click on it. */
  cat: string;
}

export interface PetsSite {
  url: string;
  look: PetsLook;
  close(): Promise<void>;
}

/**
 * A page the interpreter cannot fully drive from the steps people write: "Give the cat a treat"
 * is not a phrasing it reads (the control is "Feed the cat"), and "the Pet the dog button" names a
 * button the page calls "Stroke the dog". Each click says so in the page's status line.
 */
export async function servePetsSite(): Promise<PetsSite> {
  const look: PetsLook = { cat: 'Feed the cat' };
  const html = (response: ServerResponse, body: string) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  };
  const site = await serveLocalSite({
    '/pets': (_request, response) =>
      html(
        response,
        page(
          'Pets',
          `<h1>Pets</h1>
          <button id="cat" type="button">${look.cat}</button>
          <button id="dog" type="button">Stroke the dog</button>
          <label for="name">Pet name</label><input id="name">
          <p id="status" role="status"></p>
          <script>
            const status = document.getElementById('status');
            document.getElementById('cat').onclick = () => { status.textContent += 'The cat purrs. '; };
            document.getElementById('dog').onclick = () => { status.textContent += 'The dog wags. '; };
          </script>`,
        ),
      ),
  });
  return { ...site, look };
}

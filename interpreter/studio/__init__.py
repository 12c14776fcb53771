"""The studio (`cardrules studio`): a page to write a ruleset, with its rulebook beside it and a
table to play it, served with the browser table of `serve` mounted in the same server.

The parts: `files` (what may be opened and saved, confined to the folders given; atomic saves
that refuse to overwrite a file changed on disk), `studio` (the state: the language server's
workspace, one analysis behind both, and the last version of each file that loaded), `app` (the
routes and the page), `command` (the command line). The page's editor is one bundled file,
`static/editor.bundle.js` (built from `js/`); the page's script is `static/studio.js`, with
`static/plain-editor.js` (a textarea in the editor's place where the bundle does not load) and
`static/layout.js` (the splitter, the narrow views); `measure` adds the panels that compare a
variant with its base. Nothing below this package imports it."""

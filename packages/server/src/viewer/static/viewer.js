// The viewer's one script (served as is: no build step). Pages work without it; it adds the
// keyboard (j/k next and previous span, h/l parent and first child, e next error, / search),
// selecting a span without reloading the whole trace (its detail is fetched from the server, the
// URL stays the permalink), and the copy buttons of SHA-256 digests.
(() => {
  const tree = document.getElementById('tree');
  const detail = document.getElementById('detail');
  const rows = tree ? Array.from(tree.querySelectorAll('a.r')) : [];
  let current = rows.findIndex((row) => row.classList.contains('s'));
  let pending = 0;

  const depthOf = (row) => Number(row.dataset.d);
  const spanOf = (href) => new URL(href, location.href).searchParams.get('span');

  function mark(index) {
    const before = rows[current];
    if (before) {
      before.classList.remove('s');
      before.removeAttribute('aria-current');
    }
    current = index;
    const row = rows[index];
    row.classList.add('s');
    row.setAttribute('aria-current', 'page');
    row.scrollIntoView({ block: 'nearest' });
  }

  /** Selects row `index`: marks it, fetches its detail, and makes its link the page's URL. */
  async function select(index, push) {
    const row = rows[index];
    if (!row || !detail) return;
    mark(index);
    const spanId = spanOf(row.href);
    const ticket = ++pending;
    try {
      const response = await fetch(`${detail.dataset.fragment}${spanId}`, {
        credentials: 'same-origin',
        headers: { accept: 'text/html' },
      });
      if (!response.ok) throw new Error(String(response.status));
      const text = await response.text();
      if (ticket !== pending) return;
      // Server-rendered HTML of this origin, every recorded string escaped by the server.
      detail.innerHTML = text;
      detail.scrollTop = 0;
      if (push) history.pushState({ span: spanId }, '', row.href);
      const title = detail.querySelector('[data-title]');
      if (title) document.title = title.dataset.title;
    } catch {
      if (ticket === pending) location.href = row.href;
    }
  }

  function move(target) {
    if (target >= 0 && target < rows.length && target !== current) void select(target, true);
  }

  function parentIndex() {
    const depth = depthOf(rows[current]);
    for (let i = current - 1; i >= 0; i--) if (depthOf(rows[i]) < depth) return i;
    return -1;
  }

  function nextError() {
    for (let step = 1; step <= rows.length; step++) {
      const i = (current + step) % rows.length;
      if (rows[i].classList.contains('e')) return i;
    }
    return -1;
  }

  function typing(target) {
    return (
      target instanceof HTMLElement &&
      (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
    );
  }

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (event.key === '/') {
      const search = document.getElementById('q');
      if (search) {
        event.preventDefault();
        search.focus();
        search.select();
      }
      return;
    }
    if (rows.length === 0) return;
    if (current < 0) current = 0;
    const keys = {
      j: () => move(current + 1),
      k: () => move(current - 1),
      h: () => move(parentIndex()),
      l: () => {
        const next = rows[current + 1];
        if (next && depthOf(next) === depthOf(rows[current]) + 1) move(current + 1);
      },
      e: () => move(nextError()),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });

  if (tree) {
    tree.addEventListener('click', (event) => {
      const row = event.target instanceof Element ? event.target.closest('a.r') : null;
      if (!row || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)
        return;
      event.preventDefault();
      const index = rows.indexOf(row);
      if (index !== current) void select(index, true);
    });
    window.addEventListener('popstate', () => {
      const spanId = new URL(location.href).searchParams.get('span');
      const index = rows.findIndex((row) => spanOf(row.href) === spanId);
      void select(Math.max(index, 0), false);
    });
    if (current >= 0) rows[current].scrollIntoView({ block: 'center' });
  }

  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button.copy') : null;
    if (!button) return;
    navigator.clipboard.writeText(button.dataset.copy).then(
      () => {
        button.textContent = 'copied';
        setTimeout(() => {
          button.textContent = 'copy';
        }, 1200);
      },
      () => {
        button.textContent = 'select and copy';
      },
    );
  });
})();

(numbers) => {
  // The PDF's printed contents (publish/pdf.py, run by Playwright in the print page before each
  // print): write each target's page, {id: page}, into its span.vdi-toc-page; return how many
  // numbers changed (none: the print that follows is the PDF).
  let changed = 0;
  for (const span of document.querySelectorAll("nav.vdi-toc span.vdi-toc-page[data-target]")) {
    const n = String(numbers[span.dataset.target]);
    if (span.textContent !== n) {
      span.textContent = n;
      changed += 1;
    }
  }
  return changed;
}

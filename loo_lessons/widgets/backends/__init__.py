"""The two back ends of every widget controller: `kernel` (anywidget, JupyterLab) and
`browser` (the book page's worker, Pyodide). Both are generic: they know no widget by name."""

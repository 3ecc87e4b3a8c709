"""Pictures: plots of saved runs, rendered grids, and the replay page of a trace.

plot:        cactus, scatter, survival and curve plots (matplotlib, imported only when asked for)
html_report: the interactive HTML report of saved runs (its script and style: html_report.js, .css)
picture:     a solved grid as a picture, each cell coloured by how it was found
chain_picture: one step of the human solver over the candidates before it, with its chain
steps:       a trace replayed on a board, step by step
replay_page: one self-contained HTML page stepping through a trace
search_tree: the search tree of a trace, and its summary when it is too big to draw
tree_svg:    a search tree drawn as SVG text, with a legend
"""

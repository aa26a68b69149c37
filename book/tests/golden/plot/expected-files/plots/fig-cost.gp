set encoding utf8
set terminal pdfcairo size 14cm,8.2cm font "P052,6.75" fontscale 1 linewidth 1 rounded enhanced
set output "build/book-tests/golden/plot/plots/fig-cost.pdf"
set border 3 lw 0.8
set tics nomirror out scale 0.6
set grid xtics ytics lw 0.4 lc rgb "#d9d9d9" dt 1
set xlabel "batch" noenhanced
set ylabel "cost per million tokens (USD)" noenhanced
set key bottom left reverse Left samplen 3 spacing 1.15 box lw 0.5 lc rgb "#999999" opaque
set offsets 0, 0, graph 0.05, 0
set format y "%g"
set xrange [1:1000]
set logscale x
set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256)
set logscale y
set ytics ("0.001" 0.001, "0.01" 0.01, "0.1" 0.10000000000000001, "1" 1, "10" 10)
set xtics noenhanced
set ytics noenhanced
plot "build/book-tests/golden/plot/plots/fig-cost.dat" using 1:2 with lines lw 3 lc rgb "#000000" dt 1 title "cost" noenhanced

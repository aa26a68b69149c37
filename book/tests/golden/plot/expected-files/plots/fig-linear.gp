set encoding utf8
set terminal pdfcairo size 14cm,8.2cm font "P052,6.75" fontscale 1 linewidth 1 rounded enhanced
set output "build/book-tests/golden/plot/plots/fig-linear.pdf"
set border 3 lw 0.8
set tics nomirror out scale 0.6
set grid xtics ytics lw 0.4 lc rgb "#d9d9d9" dt 1
set xlabel "batch" noenhanced
set ylabel "time per step (ms)" noenhanced
set key top left reverse Left samplen 3 spacing 1.15 box lw 0.5 lc rgb "#999999" opaque
set offsets 0, 0, graph 0.05, 0
set format y "%g"
set xrange [1000:4000]
set format x "%g"
set xtics ("1,000" 1000, "1,500" 1500, "2,000" 2000, "2,500" 2500, "3,000" 3000, "3,500" 3500, "4,000" 4000)
set yrange [0:*]
set xtics noenhanced
set ytics noenhanced
plot "build/book-tests/golden/plot/plots/fig-linear.dat" using 1:2 with lines lw 3 lc rgb "#000000" dt 1 title "step time" noenhanced

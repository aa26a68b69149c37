set encoding utf8
set terminal pdfcairo size 14cm,8.2cm font "P052,6.75" fontscale 1 linewidth 1 rounded enhanced
set output "build/book-tests/golden/plot/plots/fig-demo.pdf"
set border 3 lw 0.8
set tics nomirror out scale 0.6
set grid xtics ytics lw 0.4 lc rgb "#d9d9d9" dt 1
set xlabel "batch (sequences per step)" noenhanced
set ylabel "time per step (ms)" noenhanced
set key top left reverse Left samplen 3 spacing 1.15 box lw 0.5 lc rgb "#999999" opaque
set offsets 0, 0, graph 0.05, 0
set format y "%g"
set xrange [1000:4000]
set logscale x
set yrange [0:*]
set xtics noenhanced
set ytics noenhanced
set arrow from 1000, graph 0 to 1000, graph 1 nohead lw 1.6 dt (6,4) lc rgb "#7B3294" front
set label "balance batch = 1,000" noenhanced at 1000, graph 0.97 left offset 0.6,0 tc rgb "#7B3294" front
plot "build/book-tests/golden/plot/plots/fig-demo.dat" using 1:2 with lines lw 1.8 lc rgb "#0072B2" dt 2 title "compute" noenhanced, \
     "" using 1:3 with lines lw 1.8 lc rgb "#E69F00" dt 3 title "weight fetch" noenhanced, \
     "" using 1:4 with lines lw 3 lc rgb "#000000" dt 1 title "step time" noenhanced

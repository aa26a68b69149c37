set encoding utf8
set terminal pdfcairo size 14cm,8.2cm font "P052,6.75" fontscale 1 linewidth 1 rounded enhanced
set output "build/book-tests/golden/plot/plots/fig-marks.pdf"
set border 3 lw 0.8
set tics nomirror out scale 0.6
set grid xtics ytics lw 0.4 lc rgb "#d9d9d9" dt 1
set xlabel "batch {/:Italic B} (sequences)" enhanced
set ylabel "time per step (ms)" noenhanced
set key top left reverse Left samplen 3 spacing 1.15 box lw 0.5 lc rgb "#999999" opaque
set offsets 0, 0, graph 0.05, 0
set format y "%g"
set xrange [0.5:3000]
set format x "%g"
set xtics ("500" 500, "1,000" 1000, "1,500" 1500, "2,000" 2000, "2,500" 2500, "3,000" 3000)
set yrange [0:*]
set xtics noenhanced
set ytics noenhanced
set arrow from 1000, graph 0 to 1000, graph 1 nohead lw 1.6 dt (6,4) lc rgb "#7B3294" front
set label "{/:Italic B}^{*} = 1,000" enhanced at 1000, graph 0.97 left offset 0.6,0 tc rgb "#7B3294" front
set arrow from 1000, graph 0 to 1000, graph 1 nohead lw 1.6 dt (6,4) lc rgb "#8C510A" front
set label "{/:Italic r}·{/:Italic s} = 1,000" enhanced at 1000, graph 0.9 left offset 0.6,0 tc rgb "#8C510A" front
plot "build/book-tests/golden/plot/plots/fig-marks.dat" using 1:2 with lines lw 1.8 lc rgb "#0072B2" dt 2 title "compute {/:Italic B}{/:Italic c}" enhanced, \
     "" using 1:3 with lines lw 3 lc rgb "#000000" dt 1 title "step {/:Italic t}_{step}" enhanced

package org.bitina.node;

/**
 * Pan and zoom for a topology drawing too big to read at page width (a k=8 fat-tree's 128 hosts in
 * 1,280 px): buttons above the SVG (zoom in, zoom out, reset), Ctrl + wheel zooms at the pointer, a
 * double click zooms in there, a drag pans. Only the SVG's {@code viewBox} changes, so the drawing
 * keeps its room on the page (nothing grows wider than it) and stays vector-sharp at any zoom. One
 * plain inline script for the page, no library and nothing fetched: the page still opens offline.
 */
final class ZoomControl {
    private ZoomControl() {}

    /** At most this many times closer than the whole drawing: a host's 7 px name is then 112 px tall. */
    static final int MAX_ZOOM = 16;

    /** The buttons for the SVG of id {@code svgId}, placed before it in its figure. */
    static String controls(String svgId) {
        return "<div class=\"zoom-control\" data-for=\"" + HtmlReport.esc(svgId) + "\">"
                + "<button type=\"button\" data-zoom=\"in\" title=\"zoom in\">+</button>"
                + "<button type=\"button\" data-zoom=\"out\" title=\"zoom out\">&#8722;</button>"
                + "<button type=\"button\" data-zoom=\"reset\" title=\"the whole drawing\">reset</button>"
                + "<span>zoom: Ctrl + wheel or double click; drag to pan</span></div>";
    }

    static final String STYLE = ".zoom-control{font-size:12px;color:#555;margin:.2em 0}"
            + ".zoom-control button{font-size:12px;margin-right:.3em;min-width:2em}"
            + ".zoom-control span{margin-left:.4em}svg.zoomable{cursor:grab;touch-action:none}";

    /** The page's one script: wires every {@code .zoom-control} to its SVG. */
    static final String SCRIPT = "<script>\n(function(){"
            + "document.querySelectorAll('.zoom-control').forEach(function(c){"
            + "var s=document.getElementById(c.dataset.for);if(!s)return;s.classList.add('zoomable');"
            + "var v0=s.getAttribute('viewBox').split(/[ ,]+/).map(Number),v=v0.slice(),max=" + MAX_ZOOM + ";"
            + "function set(){s.setAttribute('viewBox',v.map(function(x){return Math.round(x*10)/10}).join(' '))}"
            // keep the view inside the drawing: a pan or zoom never shows empty space beyond its edges
            + "function clamp(){v[0]=Math.max(v0[0],Math.min(v[0],v0[0]+v0[2]-v[2]));"
            + "v[1]=Math.max(v0[1],Math.min(v[1],v0[1]+v0[3]-v[3]))}"
            + "function zoom(f,x,y){var w=Math.min(v0[2],Math.max(v0[2]/max,v[2]*f)),k=w/v[2];"
            + "v[0]=x-(x-v[0])*k;v[1]=y-(y-v[1])*k;v[2]=w;v[3]=v[3]*k;clamp();set()}"
            + "function centre(f){zoom(f,v[0]+v[2]/2,v[1]+v[3]/2)}"
            + "function at(e){var r=s.getBoundingClientRect();"
            + "return[v[0]+(e.clientX-r.left)*v[2]/r.width,v[1]+(e.clientY-r.top)*v[3]/r.height]}"
            + "c.querySelector('[data-zoom=in]').addEventListener('click',function(){centre(0.5)});"
            + "c.querySelector('[data-zoom=out]').addEventListener('click',function(){centre(2)});"
            + "c.querySelector('[data-zoom=reset]').addEventListener('click',function(){v=v0.slice();set()});"
            + "s.addEventListener('wheel',function(e){if(!e.ctrlKey)return;e.preventDefault();"
            + "var p=at(e);zoom(e.deltaY<0?0.8:1.25,p[0],p[1])},{passive:false});"
            + "s.addEventListener('dblclick',function(e){var p=at(e);zoom(0.5,p[0],p[1])});"
            + "var drag=null;s.addEventListener('pointerdown',function(e){"
            + "drag=[e.clientX,e.clientY,v[0],v[1]];s.setPointerCapture(e.pointerId)});"
            + "s.addEventListener('pointermove',function(e){if(!drag)return;var r=s.getBoundingClientRect();"
            + "v[0]=drag[2]-(e.clientX-drag[0])*v[2]/r.width;v[1]=drag[3]-(e.clientY-drag[1])*v[3]/r.height;"
            + "clamp();set()});"
            + "['pointerup','pointercancel'].forEach(function(t){s.addEventListener(t,function(){drag=null})})"
            + "})})();\n</script>\n";
}
